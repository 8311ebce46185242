import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { generateApiKey, parseApiKeys } from '../config/api-key-entries';
import { ApiKeysFile, type KeysFileRead, MAX_KEYS_FILE_BYTES } from './api-keys-file';
import { nextKeys } from './key-reload';

const noVapi = { vapiSecrets: [] };
const a = generateApiKey('svc-a');
const b = generateApiKey('svc-b', ['loc_b'], ['context:read']);
const fixed = generateApiKey('from-env');
const entries = (text: string) => parseApiKeys(text, 'test').keys;

describe('API key reloads', () => {
  describe('nextKeys', () => {
    const current = entries(`${fixed.line}\n${a.line}`);
    const fixedKeys = entries(fixed.line);

    it('replaces the file part, keeps API_KEYS, and names what changed (never hashes)', () => {
      const sut = nextKeys(current, fixedKeys, { text: `# rotated\n${b.line}\n` }, noVapi);
      expect(sut).toMatchObject({ changed: true, keys: entries(`${fixed.line}\n${b.line}`) });
      const summary = (sut as { summary: string }).summary;
      expect(summary).toBe('2 key(s); added svc-b; removed svc-a');
      expect(summary).not.toMatch(/[0-9a-f]{64}/);
    });

    it('says unchanged when only comments or order moved', () => {
      const sut = nextKeys(current, fixedKeys, { text: `\n# note\n${a.line}\n` }, noVapi);
      expect(sut).toMatchObject({ changed: false });
    });

    it('counts a new scope or hash under the same name as a change', () => {
      const narrowed = a.line + ';scopes=search:read';
      expect(nextKeys(current, fixedKeys, { text: narrowed }, noVapi)).toMatchObject({
        changed: true,
        summary: '2 key(s); changed svc-a',
      });
    });

    it.each<[string, KeysFileRead, RegExp]>([
      ['a malformed entry', { text: `${a.line}\nnot-a-key` }, /entry 2 is not/],
      ['a pasted plain key', { text: a.key }, /looks like a plain key/],
      ['an unknown scope', { text: `${a.line};scopes=everything` }, /unknown scope/],
      ['a name given twice', { text: `${a.line}\n${a.line}` }, /configured twice/],
      ['an emptied file (would run open)', { text: '# all gone\n' }, /would run open/],
      ['an unreadable file', { problem: 'API_KEYS_FILE: cannot read x (ENOENT)' }, /ENOENT/],
    ])('keeps the keys in use on %s, without quoting key material', (_what, read, problem) => {
      const sut = nextKeys(entries(a.line), [], read, noVapi);
      expect(sut).toEqual({ problems: expect.arrayContaining([expect.stringMatching(problem)]) });
      expect(JSON.stringify(sut)).not.toContain(a.key);
    });

    it('refuses a bound key beside an unbound Vapi secret, as the boot does', () => {
      const vapi = { vapiSecrets: entries(generateApiKey('assistant').line) };
      expect(nextKeys(current, fixedKeys, { text: b.line }, vapi)).toEqual({
        problems: [expect.stringMatching(/Vapi secret/)],
      });
    });
  });

  describe('ApiKeysFile', () => {
    let dir: string;
    let path: string;
    let reads: KeysFileRead[];
    let sut: ApiKeysFile;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'keys-file-'));
      path = join(dir, 'keys');
      writeFileSync(path, a.line);
      reads = [];
    });
    afterEach(async () => {
      await sut.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const follow = (pollMs: number, settleMs = 0) => {
      sut = new ApiKeysFile(path, { pollMs, debounceMs: 1, watch: false, settleMs }, (r) =>
        reads.push(r),
      );
      sut.start();
    };

    it('applies a file only once it has settled: a write in progress is read again later', async () => {
      utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      follow(3_600_000, 60_000);
      await sut.idle();
      expect(reads).toEqual([{ text: a.line }]); // old enough: applied at once
      // An editor mid-write: the poll sees a cut-off line.
      writeFileSync(path, a.line.slice(0, -5));
      process.emit('SIGHUP', 'SIGHUP');
      await sut.idle();
      expect(reads).toHaveLength(1); // before: the cut line was applied as an unbound key
      writeFileSync(path, b.line);
      utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      process.emit('SIGHUP', 'SIGHUP');
      await sut.idle();
      expect(reads).toEqual([{ text: a.line }, { text: b.line }]);
    });

    it('reads at start, then on SIGHUP, handing on each version once', async () => {
      follow(3_600_000); // no poll in this test: only the signal can pick the change up
      await sut.idle();
      expect(reads).toEqual([{ text: a.line }]);
      writeFileSync(path, b.line);
      process.emit('SIGHUP', 'SIGHUP');
      await sut.idle();
      process.emit('SIGHUP', 'SIGHUP');
      await sut.idle();
      expect(reads).toEqual([{ text: a.line }, { text: b.line }]);
    });

    it('stops listening to SIGHUP when stopped', async () => {
      follow(3_600_000);
      await sut.idle();
      const listeners = process.listenerCount('SIGHUP');
      await sut.stop();
      expect(process.listenerCount('SIGHUP')).toBe(listeners - 1);
    });

    it('reports a missing or oversized file by errno or size, never by content', async () => {
      follow(3_600_000);
      await sut.idle();
      rmSync(path);
      process.emit('SIGHUP', 'SIGHUP');
      await sut.idle();
      writeFileSync(path, `${a.key}\n`.repeat(Math.ceil(MAX_KEYS_FILE_BYTES / a.key.length)));
      process.emit('SIGHUP', 'SIGHUP');
      await sut.idle();
      expect(reads.slice(1)).toEqual([
        { problem: expect.stringMatching(/\(ENOENT\)$/) },
        { problem: expect.stringMatching(/bytes, over 1048576$/) },
      ]);
      expect(JSON.stringify(reads)).not.toContain(a.key);
    });
  });
});
