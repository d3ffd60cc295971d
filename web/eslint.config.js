import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// zod is configured once (jitless, for the CSP) in src/lib/schema.ts: import it from there.
const zodOnlyFromSchema = { name: 'zod', message: "Import z from '@/lib/schema' (configured for the CSP)." };

export default tseslint.config(
  { ignores: ['dist', 'coverage', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked, ...tseslint.configs.stylisticTypeChecked],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: false }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
      'no-restricted-imports': ['error', { paths: [zodOnlyFromSchema] }],
    },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      // bulletproof-react: a feature uses shared code only, never another feature or the app shell.
      'no-restricted-imports': [
        'error',
        {
          paths: [zodOnlyFromSchema],
          patterns: [
            { group: ['@/app', '@/app/*'], message: 'Features must not import the app shell.' },
            { group: ['@/features/*', '../../*/**', '../../*'], message: 'Features must not import other features; compose them in src/app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/lib/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [zodOnlyFromSchema], patterns: [{ group: ['@/app', '@/app/*', '@/features', '@/features/*'], message: 'Shared code must not import features or the app shell.' }] },
      ],
    },
  },
  {
    files: ['src/lib/schema.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.{test,spec}.{ts,tsx}', 'src/test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
