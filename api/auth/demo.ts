import type { Identity } from './verifier.ts';

// Demo mode (spec §4, design decision 11): used when Firebase is not configured, i.e. the web API
// key begins with "demo-". The islands and the API share these values.

export const DEMO_TOKEN = 'nestling-demo-token';

export const DEMO_IDENTITY: Identity = {
  uid: 'demo-user',
  email: 'demo.parent@nestling.example',
  name: 'Demo Parent',
  picture: null,
};

export function isDemoApiKey(apiKey: string): boolean {
  return apiKey.startsWith('demo-');
}
