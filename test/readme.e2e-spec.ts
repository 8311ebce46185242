import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { getMetadataStorage } from 'class-validator';

import { EnvSchema } from '../src/config/env.schema';
import { bootTestApp, type TestApp } from './support/app';

/**
 * The user documentation stays true: the configuration table lists exactly the variables the
 * service reads, every link resolves, and the README's tour runs against the real app.
 */

const ROOT = join(__dirname, '..');
const README = join(ROOT, 'README.md');
/** Where the README's examples point: `npm start` on its defaults. */
const DEFAULT_ORIGIN = 'localhost:3004';

const read = (file: string) => readFileSync(file, 'utf8');

/** Markdown without its fenced code blocks (links and headings there are not links). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** The text under a `## heading`, up to the next `## ` heading. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) {
    throw new Error(`no "## ${heading}" section`);
  }
  const next = markdown.indexOf('\n## ', start + heading.length + 4);
  return markdown.slice(start, next < 0 ? undefined : next);
}

/** Every environment variable `loadConfig` validates (the properties of `EnvSchema`). */
function envVariables(): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(EnvSchema, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))].sort();
}

/** Variables named in the first column of the README's configuration table. */
function tableVariables(markdown: string): string[] {
  const rows = section(markdown, 'Configuration')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  const first = rows.map((row) => row.split(/(?<!\\)\|/)[1] ?? '');
  return [...new Set(first.flatMap((cell) => cell.match(/(?<=`)[A-Z][A-Z0-9_]+(?=`)/g) ?? []))];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

/** Link and image targets, and `<http…>` autolinks, outside code. */
function links(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [
    ...[...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/<(https?:\/\/[^>\s]+)>/g)].map((m) => m[1]),
  ];
}

function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(dir, entry.name))
        : entry.name.endsWith('.md')
          ? [join(dir, entry.name)]
          : [],
    );
  return [README, ...walk(docs)];
}

/** Shell words of one command line: single and double quotes, backslash-newline joined. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const [, single, double, bare] of line.matchAll(/'([^']*)'|"([^"]*)"|([^\s'"]+)/g)) {
    words.push(single ?? double ?? bare);
  }
  return words;
}

interface Curl {
  line: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The `curl` commands of a section, in order: fenced `sh` blocks and inline code. */
function curls(markdown: string): Curl[] {
  const lines = [
    ...[...markdown.matchAll(/```sh\n([\s\S]*?)```|`(curl [^`]+)`/g)].flatMap(
      ([, block, inline]) =>
        block !== undefined ? block.replace(/\\\n\s*/g, ' ').split('\n') : [inline],
    ),
  ].filter((line) => line.startsWith('curl '));
  return lines.map((line) => {
    const words = shellWords(line).slice(1);
    const curl: Curl = { line, method: '', path: '', headers: {} };
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (word === '-X') {
        curl.method = words[++i];
      } else if (word === '-H') {
        const [name, ...value] = words[++i].split(':');
        curl.headers[name.trim()] = value.join(':').trim();
      } else if (word === '-d' || word === '--data-binary') {
        curl.body = words[++i];
      } else if (word.includes(DEFAULT_ORIGIN)) {
        curl.path = word.slice(word.indexOf(DEFAULT_ORIGIN) + DEFAULT_ORIGIN.length);
      } else if (!/^-[sN]+$/.test(word)) {
        throw new Error(`unsupported curl word "${word}" in: ${line}`);
      }
    }
    curl.method ||= curl.body === undefined ? 'GET' : 'POST';
    return curl;
  });
}

/** The JSON payloads of a server-sent-events body. */
const events = (text: string) =>
  [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]) as { type: string });

describe('README and docs/ (e2e)', () => {
  const readme = read(README);

  it('lists every environment variable the service reads, and only those', () => {
    const variables = envVariables();
    expect(variables.length).toBeGreaterThanOrEqual(80);
    const documented = tableVariables(readme);
    expect({ missing: variables.filter((v) => !documented.includes(v)) }).toEqual({
      missing: [],
    });
    expect({ unknown: documented.filter((v) => !variables.includes(v)) }).toEqual({
      unknown: [],
    });
    // .env.example is the copy-and-edit form of the same table.
    const example = read(join(ROOT, '.env.example'));
    expect({
      notInEnvExample: variables.filter((v) => !new RegExp(`\\b${v}\\b`).test(example)),
    }).toEqual({ notInEnvExample: [] });
  });

  it('the table parser sees what it claims to', () => {
    const sample =
      '\n## Configuration\n\n| variable |\n|---|\n| `A_B`, `C` (alias `D_E`) | `F_G` |\n';
    expect(tableVariables(sample)).toEqual(['A_B', 'D_E']);
    expect([
      ...anchors('# Five-minute tour\n## R42 chat widget (`<r42-chat>`)\n## A\n## A'),
    ]).toEqual(['five-minute-tour', 'r42-chat-widget-r42-chat', 'a', 'a-1']);
  });

  it('has every relative link and anchor in README.md and docs/ resolve', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles()) {
      for (const target of links(read(file))) {
        if (/^(https?:|mailto:)/.test(target)) {
          continue; // absolute: the local service's pages are fetched in the tour test
        }
        checked++;
        const [path, anchor] = target.split('#');
        const resolved = path ? resolve(dirname(file), path) : file;
        const where = `${relative(ROOT, file)} → ${target}`;
        if (!existsSync(resolved)) {
          broken.push(`${where}: no such file`);
        } else if (anchor && !anchors(read(resolved)).has(anchor)) {
          broken.push(`${where}: no such heading`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  describe('the five-minute tour, against the app on the demo data', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await bootTestApp({ SEED_DEMO_DATA: 'true' });
    });
    afterAll(() => t?.close());

    it('runs every curl example of the tour, in order, with the outcome the tour describes', async () => {
      const tour = section(readme, 'Five-minute tour');
      const commands = curls(tour);
      expect(commands.length).toBeGreaterThanOrEqual(10);
      const calls = new Map<string, string[]>(); // call_id → transcripts so far
      const chatOutcomes = new Set<string>();
      for (const curl of commands) {
        const res = await fetch(`${t.url}${curl.path}`, {
          method: curl.method,
          headers: curl.headers,
          body: curl.body,
        });
        const text = await res.text();
        expect({ command: curl.line, ok: res.ok, text: res.ok ? '' : text }).toEqual({
          command: curl.line,
          ok: true,
          text: '',
        });
        const request = curl.body ? (JSON.parse(curl.body) as Record<string, unknown>) : {};
        if (curl.path === '/context') {
          const bundle = JSON.parse(text) as {
            historical_excerpts: unknown[];
            meta: { query: string; partial: boolean };
          };
          expect(bundle.historical_excerpts.length).toBeGreaterThan(0);
          // A chunk of a call is searched with the tail of the call's earlier chunks.
          const earlier = calls.get(request.call_id as string) ?? [];
          for (const transcript of earlier) {
            expect(bundle.meta.query).toContain(transcript);
          }
          calls.set(request.call_id as string, [...earlier, request.transcript as string]);
        } else if (curl.path === '/search') {
          expect((JSON.parse(text) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
        } else if (curl.path === '/chat') {
          const types = events(text).map((e) => e.type);
          expect(types.at(-1)).toBe('done');
          chatOutcomes.add(types.includes('out_of_scope') ? 'out_of_scope' : types.join(','));
        } else if (curl.path === '/redact') {
          expect(text).not.toContain('4111');
        }
      }
      expect([...calls.values()].some((chunks) => chunks.length > 1)).toBe(true);
      expect([...chatOutcomes].sort()).toEqual([
        expect.stringMatching(/^chunk(,chunk)*,citations,done$/) as string,
        'out_of_scope',
      ]);
    });

    it('serves every page the docs link to on the local service', async () => {
      const pages = markdownFiles()
        .flatMap((file) => links(read(file)))
        .filter((target) => target.includes(`//${DEFAULT_ORIGIN}/`));
      expect(pages.length).toBeGreaterThanOrEqual(3);
      for (const page of new Set(pages)) {
        const path = page.slice(page.indexOf(DEFAULT_ORIGIN) + DEFAULT_ORIGIN.length);
        const res = await fetch(`${t.url}${path}`);
        await res.arrayBuffer();
        expect({ page, status: res.status }).toEqual({ page, status: 200 });
      }
    });
  });
});
