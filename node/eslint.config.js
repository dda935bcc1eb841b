'use strict';
// ESLint's recommended rules over node/ (node/test.sh runs it with --max-warnings 0).
const js = require('@eslint/js');

const NODE_GLOBALS = Object.fromEntries(['require', 'module', 'exports', 'process', 'Buffer', 'console', '__dirname', '__filename',
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'URL', 'TextEncoder',
  'TextDecoder', 'global', 'BigInt', 'queueMicrotask', 'structuredClone'].map((name) => [name, 'readonly']));

module.exports = [
  { ignores: ['node_modules/', 'build/'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs', globals: NODE_GLOBALS },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
      strict: ['error', 'global'],
    },
  },
];
