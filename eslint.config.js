// The house rules that the type-checker cannot keep. `npm run lint` runs this after `tsc`.
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import gatehouse from './eslint-rules/index.js';

const TS = ['**/*.ts', '**/*.tsx'];
const JS = ['**/*.js', '**/*.mjs', '**/*.cjs'];
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/vitest.setup.ts'];
const PACKAGE_SOURCES = ['services/*/src/**', 'frontends/*/src/**', 'packages/*/src/**', 'migrations/src/**'];
const SPAS = ['frontends/*/src/**'];

export default defineConfig(
  globalIgnores(['**/dist/', '**/coverage/', '**/.test-results/', 'test-artifacts/', 'data/', '**/*.d.ts']),

  {
    name: 'gatehouse/all',
    files: [...TS, ...JS],
    linterOptions: { reportUnusedDisableDirectives: 'error', noInlineConfig: true },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    plugins: { 'import-x': importX, gatehouse },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', 'frontends/*/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      // Type-only cycles are not followed by the plugin: they vanish at compile time.
      'import-x/no-cycle': 'error',
    },
  },

  {
    name: 'gatehouse/typescript',
    files: TS,
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: {
        // The Vite settings shared by both SPAs sit above them; each SPA's tsconfig includes them.
        projectService: { allowDefaultProject: ['frontends/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },

  {
    name: 'gatehouse/config-only-in-the-loader',
    files: ['services/*/src/**', 'frontends/*/src/**'],
    ignores: [...TESTS, 'services/core/src/config/loader.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through the config loader (services/core/src/config/loader.ts).' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/^(node:)?process$/] > ImportSpecifier[imported.name='env']",
          message: 'Read configuration through the config loader (services/core/src/config/loader.ts).',
        },
      ],
    },
  },

  {
    name: 'gatehouse/package-boundaries',
    files: PACKAGE_SOURCES,
    rules: { 'gatehouse/no-cross-package-import': 'error', 'gatehouse/no-foreign-repository': 'error' },
  },

  {
    name: 'gatehouse/frontend-imports',
    files: SPAS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@gatehouse/(?!(frontend-shared|contracts)(/|$))',
              message: 'The browser code imports only @gatehouse/frontend-shared and @gatehouse/contracts.',
            },
          ],
        },
      ],
    },
  },

  {
    name: 'gatehouse/contracts-imports',
    files: ['packages/contracts/src/**'],
    ignores: ['packages/contracts/src/password-strength.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\.)',
              message: 'The contracts import nothing but zod and their own files, so that the browser can load them.',
            },
            {
              regex: '^\\..*/password-strength(\\.js)?$',
              message: 'The password-strength estimate is an entry of its own (@gatehouse/contracts/password-strength): zxcvbn stays out of the other imports of the contracts.',
            },
          ],
        },
      ],
    },
  },

  {
    // The password-strength estimate, an entry of its own, also imports zxcvbn-ts (its dictionaries
    // only with `import()`, so that a browser fetches them where a password is chosen).
    name: 'gatehouse/contracts-password-strength-imports',
    files: ['packages/contracts/src/password-strength.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|@zxcvbn-ts/|\\.)',
              message: "The password-strength estimate imports nothing but zxcvbn-ts, zod and the contracts' own files, so that the browser can load it.",
            },
          ],
        },
      ],
    },
  },

  {
    name: 'gatehouse/function-length',
    files: ['services/**/*.ts'],
    ignores: TESTS,
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },

  {
    name: 'gatehouse/handler-length',
    files: ['services/**/*.ts'],
    ignores: TESTS,
    rules: { 'gatehouse/handler-length': ['error', { max: 15 }] },
  },

  {
    // SQL lives in repositories (repository.ts, or core's own data modules): a router binds
    // handlers, a service holds the rules.
    name: 'gatehouse/sql-in-repositories',
    files: ['services/*/src/**/router.ts', 'services/*/src/**/service.ts', 'services/*/src/http/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='query'][arguments.length>0]", message: 'SQL belongs in a repository.' },
        { selector: "CallExpression[callee.name='sqlClient']", message: 'SQL belongs in a repository.' },
        { selector: 'Literal[value=/^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\\s/i]', message: 'SQL belongs in a repository.' },
        { selector: 'TemplateElement[value.raw=/^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\\s/i]', message: 'SQL belongs in a repository.' },
      ],
    },
  },

  {
    name: 'gatehouse/react',
    files: ['frontends/**/*.ts', 'frontends/**/*.tsx'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/exhaustive-deps': 'error' },
  },
);
