// Vitest setupFiles for the unit project. In CI the unit files run beside the browser files on two
// busy cores, where a lazily loaded island part can take longer than Testing Library's default of
// one second to appear; findBy* and waitFor wait up to five instead (they return as soon as it is
// there, so a fast machine waits no longer).
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
