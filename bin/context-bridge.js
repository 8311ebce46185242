#!/usr/bin/env node
// In a dev checkout (sources + dev dependencies) run the TypeScript directly, so the CLI can
// never run a stale build; in a deployed image (dist only) run the compiled CLI.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
// `--version` alone answers before the CLI's modules are loaded (seconds under swc).
if (process.argv.length === 3 && ['--version', '-V'].includes(process.argv[2])) {
  process.stdout.write(`${require(join(root, 'package.json')).version}\n`);
  return;
}
const source = join(root, 'src', 'cli', 'main.ts');
let register;
try {
  register = require.resolve('@swc-node/register');
} catch {
  register = undefined;
}
if (register && existsSync(source)) {
  // The checkout's tsconfig (its @app/* paths), wherever the CLI is started from: the loader
  // would otherwise look for one in the working directory.
  process.env.SWC_NODE_PROJECT ??= join(root, 'tsconfig.json');
  require(register);
  require(source);
} else {
  require(join(root, 'dist', 'src', 'cli', 'main.js'));
}
