// @vitest-environment jsdom
// The demo-mode mark beside a commenter's name: the role the name implies, named for screen readers.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RoleMark } from '../../src/islands/comments/RoleMark.tsx';

afterEach(cleanup);

describe('the role mark', () => {
  it('shows a shield for an admin and a star for a moderator, each named', () => {
    const { container, rerender } = render(<RoleMark name="Sam Admin" />);
    expect(screen.getByTitle('Admin').textContent).toBe('Admin');
    expect(container.querySelector('.text-purple-800 svg')).not.toBeNull();
    rerender(<RoleMark name="Mo Moderator" />);
    expect(screen.getByTitle('Moderator').textContent).toBe('Moderator');
    expect(container.querySelector('.text-blue-800 svg')).not.toBeNull();
  });

  it('shows nothing for anyone else', () => {
    const { container } = render(<RoleMark name="Priya Parent" />);
    expect(container.innerHTML).toBe('');
  });
});
