#!/usr/bin/env node
// Records the sha256 of every committed schema migration (and of the frozen code a migration
// runs) in libs/database/src/migrations/migrations.lock.json. Committed migrations are frozen:
// this script only ever ADDS entries for new files; a changed or deleted one is an error that
// names the file (write a new migration instead). A unit spec checks the lock on every run.
//   node scripts/migrations-lock.js          # add new migrations to the lock
'use strict';
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const dir = 'libs/database/src/migrations';
const lockPath = join(root, dir, 'migrations.lock.json');
// Code a migration runs that lives outside the folder: migration 5 backfilled BM25 postings
// with this normaliser, so a change to it is a new normaliser version plus a migration.
const FROZEN_INPUTS = ['libs/common/src/lexical-terms.ts'];

const digest = (file) =>
  createHash('sha256')
    .update(readFileSync(join(root, file), 'utf8').replace(/\r\n/g, '\n'))
    .digest('hex');

const migrationFiles = () =>
  readdirSync(join(root, dir))
    .filter((name) => /^\d{13}-[a-z0-9-]+\.ts$/.test(name))
    .sort()
    .map((name) => `${dir}/${name}`);

const lock = existsSync(lockPath) ? JSON.parse(readFileSync(lockPath, 'utf8')) : {};
const problems = [];
for (const file of Object.keys(lock)) {
  if (!existsSync(join(root, file))) {
    problems.push(`${file} is locked but gone`);
  } else if (digest(file) !== lock[file]) {
    problems.push(`${file} changed after it was locked`);
  }
}
if (problems.length > 0) {
  console.error(`Committed migrations are frozen:\n  ${problems.join('\n  ')}\nWrite a new migration.`);
  process.exit(1);
}
const added = [...FROZEN_INPUTS, ...migrationFiles()].filter((file) => !(file in lock));
for (const file of added) {
  lock[file] = digest(file);
}
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `locked ${added.join(', ')}` : 'nothing new to lock');
