#!/usr/bin/env node
// Runs the compiled CLI when built; otherwise compiles the TypeScript on the fly (dev checkout).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const compiled = join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (existsSync(compiled)) {
  require(compiled);
} else {
  require('@swc-node/register');
  require(join(__dirname, '..', 'src', 'cli', 'main.ts'));
}
