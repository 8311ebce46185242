import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '*.js', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      // The plugin's default groups are the house style: side effects, `node:`, packages
      // (`@app/*` among them), then relative imports, a blank line between groups.
      'simple-import-sort/imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      eqeqeq: 'error',
      curly: 'error',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // One config system: ConfigModule.load reads the environment (and .env) once, validated.
    files: ['src/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Inject APP_CONFIG: ConfigModule.load reads and validates the environment once.',
        },
      ],
    },
  },
  {
    // What ships is `npm prune --omit=dev`: product code may import only `dependencies`
    // (a dev dependency once brought @opentelemetry/instrumentation in, and the release
    // could not boot). Type-only imports vanish at compile time and are allowed.
    files: ['src/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/internal-regex': '^@app/' },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: false, optionalDependencies: false, peerDependencies: false },
      ],
    },
  },
  {
    // Tests and benches run from a full install: any declared package will do.
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/internal-regex': '^@app/' },
    rules: { 'import-x/no-extraneous-dependencies': ['error', { devDependencies: true }] },
  },
  {
    // A test that sleeps hopes something happened: wait for an event, poll with waitFor
    // (test/support/wait.ts) or fake the timers instead.
    files: ['**/*.spec.ts', '**/*-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "NewExpression[callee.name='Promise'] > ArrowFunctionExpression[params.length=1] > CallExpression.body[callee.name='setTimeout'][arguments.0.type='Identifier']",
          message:
            'No fixed sleeps in tests: wait for an event, poll with waitFor, or use fake timers.',
        },
      ],
    },
  },
);
