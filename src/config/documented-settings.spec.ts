import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_TAIL_WORDS, DEFAULT_TTL_MS } from '@app/coalescer';
import { DEFAULT_DATABASE_OPTIONS } from '@app/database';
import { DEFAULT_EMBEDDING_OPTIONS } from '@app/embedding';
import { DEFAULT_LLM_OPTIONS } from '@app/llm';
import { DEFAULT_VECTOR_OPTIONS } from '@app/vector';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';

// Not exported by @app/podium (only its API adapter applies them).
import { DEFAULT_PODIUM_API_OPTIONS } from '../../libs/podium/src/api/podium-api.options';
import { EnvSchema } from './env.schema';
import { loadConfig } from './load-config';

/**
 * The places an operator reads settings from (the README's configuration table,
 * `.env.example`, the kustomize ConfigMap and Secret template) against the schema and the
 * defaults the code applies. `env-example.spec.ts` checks that `.env.example` names every
 * variable; this checks the other direction and the defaults, so a renamed, removed or
 * re-defaulted setting cannot stay documented as it was.
 */

const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const SCHEMA = new Set(
  getMetadataStorage()
    .getTargetValidationMetadatas(EnvSchema, '', true, false)
    .map((m) => m.propertyName),
);

/** The README's configuration table: `[variables of the row, its default cell]`. */
const README_ROWS = read('README.md')
  .split('\n## Configuration')[1]
  .split('\n## ')[0]
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()))
  .map(([, cell, defaults]) => ({
    names: [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
    cell,
    defaults,
  }));

/**
 * The README's default per variable, where its cell is one literal per variable of the row
 * (`` `10`, `30000`, `5000` ``), or one for a variable and its alias; cells that explain
 * ("CPU cores, at most 4") or depend on a provider (one model per provider) are left out.
 */
const README_DEFAULTS: Record<string, string> = Object.fromEntries(
  README_ROWS.flatMap(({ names, cell, defaults }) => {
    const values = [...defaults.matchAll(/`([^`]*)`/g)].map((m) => m[1]);
    if (!/^`[^`]*`(, `[^`]*`)*$/.test(defaults)) {
      return [];
    }
    if (cell.includes('(alias')) {
      return values.length === 1 ? names.map((name) => [name, values[0]]) : [];
    }
    return values.length === names.length ? names.map((name, i) => [name, values[i]]) : [];
  }),
);

/** `NAME=value` and `# NAME=value` lines of `.env.example` (value possibly empty). */
const EXAMPLE = Object.fromEntries(
  [...read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]]),
);

/** The flat `data:` / `stringData:` map of a kustomize manifest. */
const manifestKeys = (file: string, section: 'data' | 'stringData') =>
  Object.keys((parse(read(`deploy/${file}`)) as Record<string, Record<string, string>>)[section]);

/**
 * What a setting left unset becomes where a lib applies the default (its config slice keeps
 * it undefined): the config path, and the lib's value.
 */
const LIB_DEFAULTS: Record<string, unknown> = {
  'storage.database.poolMax': DEFAULT_DATABASE_OPTIONS.poolMax,
  'storage.database.statementTimeoutMs': DEFAULT_DATABASE_OPTIONS.statementTimeoutMs,
  'storage.database.connectTimeoutMs': DEFAULT_DATABASE_OPTIONS.connectTimeoutMs,
  'storage.database.pgliteSharedBuffersMb': DEFAULT_DATABASE_OPTIONS.pgliteSharedBuffersMb,
  // Database.rowSecurity: `options.rowSecurity ?? true` (no exported constant).
  'storage.database.rowSecurity': true,
  'storage.vector.qdrantTimeoutMs': DEFAULT_VECTOR_OPTIONS.qdrantTimeoutMs,
  'storage.vector.qdrantCollections.conversations':
    DEFAULT_VECTOR_OPTIONS.qdrantCollections.conversations,
  'storage.vector.qdrantCollections.source_chunks':
    DEFAULT_VECTOR_OPTIONS.qdrantCollections.source_chunks,
  'storage.vector.qdrantCollections.topic_summaries':
    DEFAULT_VECTOR_OPTIONS.qdrantCollections.topic_summaries,
  'coalescer.tailWords': DEFAULT_TAIL_WORDS,
  'coalescer.ttlMs': DEFAULT_TTL_MS,
  'embedding.bulkBatching': DEFAULT_EMBEDDING_OPTIONS.bulkBatching,
  'llm.maxTokens': DEFAULT_LLM_OPTIONS.maxTokens,
  'llm.timeoutMs': DEFAULT_LLM_OPTIONS.timeoutMs,
  'llm.maxAnswerChars': DEFAULT_LLM_OPTIONS.maxAnswerChars,
  'podium.baseUrl': DEFAULT_PODIUM_API_OPTIONS.baseUrl,
  'podium.tokenUrl': DEFAULT_PODIUM_API_OPTIONS.tokenUrl,
  'podium.cacheTtlMs': DEFAULT_PODIUM_API_OPTIONS.cacheTtlMs,
  'podium.breakerFailures': DEFAULT_PODIUM_API_OPTIONS.breakerFailures,
  'podium.breakerCooldownMs': DEFAULT_PODIUM_API_OPTIONS.breakerCooldownMs,
};

/** Every leaf path where `a` and `b` differ, with both values. */
function differences(a: unknown, b: unknown, path = ''): Array<[string, unknown, unknown]> {
  if (a === b) {
    return [];
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences(a[k], b[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [[path, a, b]];
}

describe('documented settings', () => {
  it('name only variables the service reads (.env.example, README, deploy/)', () => {
    const documented = {
      '.env.example': Object.keys(EXAMPLE),
      'README.md': README_ROWS.flatMap((row) => row.names),
      'deploy/configmap.yaml': manifestKeys('configmap.yaml', 'data'),
      'deploy/secret.template.yaml': manifestKeys('secret.template.yaml', 'stringData'),
    };
    const unknown = Object.entries(documented).flatMap(([file, names]) =>
      names.filter((name) => !SCHEMA.has(name)).map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
    expect(documented['.env.example'].length).toBeGreaterThan(70);
  });

  it('the README table has a row for every variable the service reads', () => {
    const rows = new Set(README_ROWS.flatMap((row) => row.names));
    expect([...SCHEMA].filter((name) => !rows.has(name))).toEqual([]);
  });

  it('.env.example writes the default the README gives, wherever it writes a value', () => {
    expect(Object.keys(README_DEFAULTS).length).toBeGreaterThan(50);
    const disagree = Object.entries(EXAMPLE)
      .filter(([name, value]) => value !== '' && name in README_DEFAULTS)
      .filter(([name, value]) => README_DEFAULTS[name] !== value)
      .map(([name, value]) => `${name}: .env.example ${value}, README ${README_DEFAULTS[name]}`);
    expect(disagree).toEqual([]);
  });

  it("the README's defaults are the ones the code applies", () => {
    const unset = loadConfig({});
    const wrong = Object.entries(README_DEFAULTS)
      // "unset", or another variable's name (TEI_RERANK_URL defaults to TEI_URL): no literal.
      .filter(([, value]) => value !== '' && value !== 'unset' && !SCHEMA.has(value))
      .flatMap(([name, value]) =>
        differences(unset, loadConfig({ [name]: value }))
          .filter(([path, before, after]) => before !== undefined || LIB_DEFAULTS[path] !== after)
          .map(
            ([path, before, after]) =>
              `${name}=${value}: ${path} ${String(before)} -> ${String(after)}`,
          ),
      );
    expect(wrong).toEqual([]);
  });
});
