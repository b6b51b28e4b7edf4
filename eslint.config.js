import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * What src/ may import. From api/: the wire contract (api/contract.ts, api/contract/) and the app's
 * type for Hono's typed client (a type import from api/app.ts); `extra` names what else one file may.
 * date-fns only by function (date-fns/format): its index has every function's module read and
 * tree-shaken by each build (some 300 modules, 3-6 CPU-s a build).
 */
function srcImports(extra = '') {
  const message =
    'src/ takes from api/ only the contract, the app type and (in src/lib/server-api.ts) build-app.';
  return [
    'error',
    {
      paths: [
        { name: 'date-fns', message: 'Import date-fns functions from their own modules (date-fns/format).' },
      ],
      patterns: [
        { regex: `(^|/)api/(?!(contract|app${extra})(\\.ts$|/))`, message },
        { regex: '(^|/)api/app\\.ts$', allowTypeImports: true, message },
      ],
    },
  ];
}

export default defineConfig(
  // Built sites, databases and other generated output.
  { ignores: ['dist/', 'dist-*/', '.*-builds/', 'data/', '.astro/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // The boundaries (docs/architecture.md, "Boundaries"): no import cycles anywhere, and each layer
  // imports only what it may.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      // Parse the TypeScript files it follows, or it cannot see their imports.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(src|scripts|tests)/',
              message: 'api/ imports nothing from src/, scripts/ or tests/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)tests/', message: 'scripts/ imports nothing from tests/.' }] },
      ],
    },
  },
  {
    files: ['src/**'],
    ignores: ['src/lib/server-api.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': srcImports() },
  },
  {
    // The build's API module alone also takes the in-process app entry.
    files: ['src/lib/server-api.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': srcImports('|build-app') },
  },
);
