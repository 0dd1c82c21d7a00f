// ESLint flat config: the recommended rules of ESLint and typescript-eslint; tsc does the type-check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'out/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  // Only the edges print: the CLI entry and its command runners, build scripts, benchmarks.
  { files: ['build.mjs', 'bench/**', 'src/cli/main.ts'], rules: { 'no-console': 'off' } },
);
