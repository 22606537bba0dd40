// ESLint (flat config): typescript-eslint's recommended rules over src, test and bench.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerRules } from './layers.config.js';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'build-gyp/**', 'node_modules/**', 'src/generated/**', 'web/vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
  ...layerRules,
);
