import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

/**
 * Boundaries (eslint-plugin-boundaries), found by folder: every folder of services/api/src is a feature unless it is
 * the shared kernel (what every feature may use) or the composition root (the entry points that wire the features
 * into one process). A feature uses another only through its public entry, its index.ts. Server code never imports a
 * web package. Tests are none of these: they may reach inside what they test.
 */
const API_KERNEL_FOLDERS = ['http', 'platform', 'eventsourcing', 'catalog'];
const API_KERNEL_FILES = ['context.ts', 'config.ts'];
const API_ROOT_FOLDERS = ['ops', 'seed'];
const API_ROOT_FILES = ['app.ts', 'runtime.ts', 'server.ts', 'main.ts', 'index.ts'];
const braces = (names) => `{${names.join(',')}}`;

const ELEMENTS = [
  { type: 'api-kernel', pattern: `services/api/src/${braces(API_KERNEL_FOLDERS)}`, partialMatch: false },
  { type: 'api-root', pattern: `services/api/src/${braces(API_ROOT_FOLDERS)}`, partialMatch: false },
  { type: 'api-feature', pattern: 'services/api/src/*', capture: ['feature'], partialMatch: false },
  { type: 'api', pattern: 'services/api', partialMatch: false },
  { type: 'contracts', pattern: 'contracts', partialMatch: false },
  { type: 'service', pattern: 'services/*', capture: ['service'], partialMatch: false },
  { type: 'package', pattern: 'packages/*', capture: ['package'], partialMatch: false },
  { type: 'web', pattern: 'web/*', capture: ['app'], partialMatch: false },
];

const FILES = [
  { category: 'test', pattern: '**/{test,e2e}/**' },
  { category: 'api-kernel', pattern: `services/api/src/${braces(API_KERNEL_FILES)}` },
  { category: 'api-root', pattern: `services/api/src/${braces(API_ROOT_FILES)}` },
];

const KERNEL = [{ element: { type: 'api-kernel' } }, { element: { type: 'api' }, file: { categories: 'api-kernel' } }];
const PACKAGES = [{ element: { type: '{contracts,package,service}' } }];

const BOUNDARY_POLICIES = [
  { from: { element: { type: '{contracts,package,service}' } }, allow: { to: PACKAGES } },
  // The web apps use contracts, the shared packages, the domain's rules and each other's pieces (web/ui).
  {
    from: { element: { type: 'web' } },
    allow: {
      to: [
        { element: { type: '{contracts,package,web}' } },
        { element: { type: 'service', captured: { service: 'domain' } } },
      ],
    },
  },
  // The kernel uses only the kernel.
  { from: KERNEL, allow: { to: [...KERNEL, ...PACKAGES] } },
  // A feature uses the kernel, and another feature only through its public entry.
  {
    from: { element: { type: 'api-feature' } },
    allow: { to: [...KERNEL, ...PACKAGES, { element: { type: 'api-feature', fileInternalPath: 'index.ts' } }] },
  },
  // The composition root wires everything; a test reaches inside what it tests.
  {
    from: [{ element: { type: 'api-root' } }, { file: { categories: 'api-root' } }],
    allow: { to: [{ element: { type: 'api*' } }, ...PACKAGES] },
  },
  { from: { file: { categories: 'test' } }, allow: { to: { element: { type: '*' } } } },
  {
    from: { element: { type: '{contracts,service,api*}' } },
    disallow: { to: { element: { type: 'web' } } },
    message: 'Server code never imports a web package: what both need lives in a package both may import (packages/).',
  },
];

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
    files: ['contracts/**/*.{ts,tsx}', 'services/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/files': FILES,
      'boundaries/include': ['contracts/**', 'services/**', 'web/**', 'packages/**'],
      'import/resolver': { typescript: { project: 'tsconfig.json', alwaysTryTypes: true } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            "{{from.element.path}} may not import {{to.element.path}}: a feature uses the shared kernel and another feature only through that feature's index.ts; the kernel imports no feature.",
          policies: BOUNDARY_POLICIES,
        },
      ],
    },
  },
);
