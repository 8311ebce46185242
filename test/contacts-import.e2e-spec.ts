import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Database } from '@app/database';
import { LocalPodiumContacts } from '@app/podium';

import { generateApiKey } from '../src/config/api-key-entries';
import { type ContextBundle } from '../src/context/context.dto';
import { DEMO_CONTACTS } from '../src/demo/demo-contacts';
import { bootTestApp, postJson } from './support/app';
import { seededTempDataDir } from './support/pglite-data-dir';

const ops = generateApiKey('ops');
const tenantB = generateApiKey('tenant-b', ['loc_b']);
const PRODUCTION = {
  NODE_ENV: 'production',
  API_KEYS: [ops.line, tenantB.line].join(','),
  PODIUM_PROVIDER: 'local',
  CURRICULUM_PROVIDER: 'none',
  LOG_LEVEL: 'silent',
};

/** `npx context-bridge contacts import`, then production on the local CRM it filled. */
describe('local CRM from an export (e2e)', () => {
  let dataDir: string;
  // An empty initdb'd cluster: the first open still runs every migration, not initdb.
  beforeEach(() => (dataDir = seededTempDataDir('cb-crm-')));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const cli = (...args: string[]) => cliIn({}, ...args);
  const cliIn = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, ['bin/context-bridge.js', ...args], {
      cwd: join(__dirname, '..'),
      env: {
        ...env,
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        EMBEDDING_WORKERS: '1',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('imports a CSV through the CLI; production serves its live fields, and a forget erases the row', async () => {
    const file = join(dataDir, 'export.csv');
    writeFileSync(
      file,
      '\ufeffuid,name,phone,email,opt_out_sms,last_seen_at\r\n' +
        'ctc_imp_1,"Lee, Kim",+1 555 0123,kim@example.net,true,2026-11-02T10:00:00Z\r\n' +
        'ctc_imp_2,=cmd|x,,,maybe,\r\n',
    );
    const dry = cli('contacts', 'import', file, '--location', 'loc_a', '--dry-run');
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, inserted: 1, rejected: 1 });
    // Production's own settings: the CLI fills the empty table the server would refuse.
    const run = cliIn(PRODUCTION, 'contacts', 'import', file, '--location', 'loc_a');
    expect(run.status).toBe(2); // one row rejected
    const summary = JSON.parse(run.stdout) as { inserted: number; errors: unknown[] };
    expect(summary).toMatchObject({ inserted: 1, updated: 0, rejected: 1 });
    expect(summary.errors).toEqual([{ line: 3, error: expect.stringMatching(/^opt_out_sms/) }]);
    expect(run.stdout + run.stderr).not.toContain('kim@example.net');
    expect(cli('contacts', 'import', file, '--location', 'loc_a').stdout).toMatch(/"updated": 1/);

    const t = await bootTestApp({ ...PRODUCTION, DATA_DIR: dataDir });
    try {
      const context = (uid: string) =>
        postJson<ContextBundle>(
          `${t.url}/context`,
          { transcript: 'my paddle broke', contact_uid: uid },
          { 'x-api-key': ops.key },
        );
      const res = await context('ctc_imp_1');
      expect(res.status).toBe(200);
      expect(res.body.contact).toMatchObject({
        live_fields_available: true,
        phone: '+1 555 0123',
        email: 'kim@example.net',
        opt_out_sms: true,
        location_uid: 'loc_a',
        last_seen_at: '2026-11-02T10:00:00.000Z',
      });
      const forget = (key: string) =>
        fetch(`${t.url}/contacts/ctc_imp_1/history`, {
          method: 'DELETE',
          headers: { 'x-api-key': key },
        });
      // Another location's forget leaves the loc_a contact; a whole-contact one erases it.
      expect((await forget(tenantB.key)).status).toBe(200);
      expect((await context('ctc_imp_1')).body.contact).toMatchObject({ phone: '+1 555 0123' });
      expect((await forget(ops.key)).status).toBe(200);
      expect((await context('ctc_imp_1')).body.contact).toMatchObject({
        live_fields_available: false,
        error: 404,
      });
    } finally {
      await t.close();
    }
  });

  it('refuses production on a local CRM holding the demo contacts, or nothing', async () => {
    await expect(bootTestApp({ ...PRODUCTION, DATA_DIR: dataDir })).rejects.toThrow(
      /PODIUM_PROVIDER=local in production: the local CRM is empty.*contacts import/,
    );
    const database = new Database({ dataDir });
    await database.open(512); // the default local embedder's dimension
    await new LocalPodiumContacts(database).upsert(DEMO_CONTACTS);
    await database.close();
    await expect(bootTestApp({ ...PRODUCTION, DATA_DIR: dataDir })).rejects.toThrow(
      /holds 3 demo contact\(s\).*contacts import/,
    );
  });
});
