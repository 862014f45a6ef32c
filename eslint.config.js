// Lint: the recommended JavaScript and typescript-eslint rules, plus "no console in library code"
// (the logger is the one output channel of api/; scripts print to the terminal on purpose) and
// functions of at most 80 lines in the built-in answerer.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.astro/', '.data/', 'data/generated/', 'tests/.artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  { files: ['scripts/**', 'tests/**'], rules: { 'no-console': 'off' } },
  // The built-in answerer's reader stays small functions of one job each (docs/ask.md).
  {
    files: ['api/ask/builtin/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
