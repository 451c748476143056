// Lint rules for Herald: Next.js's own (core web vitals, TypeScript) plus the few house rules
// that keep a rule in one place. Import direction is checked by dependency-cruiser
// (.dependency-cruiser.cjs); formatting by Prettier. Both run in `npm run lint`.
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      'server/generated/**',
      '.data/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      'packages/*/dist/**',
      'packages/*/node_modules/**',
      'packages/sdk/src/generated/**',
    ],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Configuration has one reader (server/config/env.ts): typed, validated, documented.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through env (server/config/env.ts).' }],
    },
  },
  {
    // Where environment variables are legitimately touched: the reader itself; start-up
    // scripts that set variables for child processes; Next.js's build-time NEXT_RUNTIME check;
    // tests, benchmarks and tools that prepare an environment.
    files: [
      'server/config/env.ts',
      'server/runtime/**',
      'instrumentation.ts',
      '**/*.test.ts',
      'server/testing/**',
      'bench/**',
      'e2e/**',
      'playwright.config.ts',
      'prisma/**',
      'vitest.config.mts',
      'prisma.config.ts',
      // An integrator's program, not Herald's code: it reads its own key from its environment.
      'docs/examples/**',
      'packages/sdk/scripts/**',
      'packages/sdk/vitest.config.mts',
      // The command line reads its key and settings from the user's environment (HERALD_API_KEY…).
      'packages/cli/src/**',
      'packages/cli/scripts/**',
      // Points n8n's engine at a throwaway user folder before it loads.
      'packages/n8n-nodes-herald/test/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // No React on the server: `use…` there names test fixtures (usePublicApi), not hooks.
    files: ['server/**', 'inngest/**', 'prisma/**', 'bench/**', 'packages/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['**/*.test.ts', 'server/testing/**', '**/testing/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
];

export default config;
