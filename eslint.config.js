import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ROUTES_OF_ANOTHER_FEATURE = {
  group: ['../*/*Routes.js', '../*/*Route.js', '../*/*Routes', '../*/*Route'],
  message:
    "A feature never imports another feature's routes: move what both need to http/ or to the owner of the table.",
};
const ANY_FEATURE = {
  group: [
    '../customer/*',
    '../desk/*',
    '../finance/*',
    '../notifications/*',
    '../store-credit/*',
    '../store-settings/*',
    '../analytics/*',
    '../public-v1/*',
    '../team/*',
    '../webhooks/*',
    '../media/*',
    '../sla/*',
    '../seed/*',
    '../ops/*',
    '../invoices/*',
    '../onboarding/*',
  ],
  message: 'Shared modules (http/, platform/, eventsourcing/, catalog/) depend on no feature.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      '.data/**',
      'infra/kafka/**',
      'scratch/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The domain decides; it never reaches for the database, the network or the web layer.
    files: ['services/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['kysely', 'pg', 'kafkajs', 'fastify*', '@claims/event-store', '@claims/api', 'node:*'] },
      ],
    },
  },
  {
    // Feature boundaries in the API: no feature imports another feature's routes; what features share
    // lives in http/ (request helpers), eventsourcing/, platform/ and the table owners (catalog/, auth/).
    files: ['services/api/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ROUTES_OF_ANOTHER_FEATURE] }] },
  },
  {
    // The shared modules depend on no feature at all.
    files: ['services/api/src/{http,platform,eventsourcing,catalog}/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ROUTES_OF_ANOTHER_FEATURE, ANY_FEATURE] }] },
  },
);
