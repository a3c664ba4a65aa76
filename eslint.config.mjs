// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**', '.data/**', 'eslint.config.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read settings through AppConfig (src/platform/config).',
        },
      ],
    },
  },
  {
    // Every promise started is awaited or handled: an unhandled rejection would end the process.
    files: ['src/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false } },
      ],
    },
  },
  {
    // A module's tables are its repositories' (`*.repository.ts`): SQL and query builders live
    // there, and everything else calls them. The database layer itself is the exception.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/platform/database/**', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['query', 'createQueryBuilder'].map((method) => ({
          selector: `CallExpression[callee.property.name='${method}']`,
          message: `.${method}() belongs in a repository (*.repository.ts) of the module that owns the table.`,
        })),
        {
          selector: "CallExpression[callee.name='preparedQuery']",
          message: 'preparedQuery() belongs in a repository (*.repository.ts).',
        },
      ],
    },
  },
  {
    files: [
      'src/platform/config/**',
      'test/**',
      'bench/**',
      '**/*.spec.ts',
      'jest.config.ts',
      'src/platform/database/cli-*.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
