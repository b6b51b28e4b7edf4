// How tests and benchmarks start Chromium: the one found on this machine (scripts/lib/system-deps.ts),
// never a downloaded build, with flags that keep it off the (closed) network.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
