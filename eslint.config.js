import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', '.data/**', 'infra/kafka/**', 'scratch/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The domain decides; it never reaches for the database, the network or the web layer.
    files: ['services/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['kysely', 'pg', 'kafkajs', 'fastify*', '@claims/event-store', '@claims/api', 'node:*'] }],
    },
  },
);
