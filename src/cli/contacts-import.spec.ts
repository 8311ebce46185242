import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type LocalContact } from '@app/podium';

import { seededRandom } from '../../test/support/seeded';
import { CONTACT_IMPORT_LIMITS } from './contact-rows';
import { checkFileSize, ContactFileError, csvRows, ndjsonRows } from './contact-sources';
import { type ContactSink, importContacts } from './contacts-import';

/** The local CRM's table as a map (what `upsert` and `locationsOf` do to it). */
class MemorySink implements ContactSink {
  readonly table = new Map<string, LocalContact>();
  upsert(contacts: LocalContact[]): Promise<void> {
    contacts.forEach((c) => this.table.set(c.contact_uid, c));
    return Promise.resolve();
  }
  locationsOf(uids: readonly string[]): Promise<Map<string, string | null>> {
    return Promise.resolve(
      new Map(
        uids.filter((u) => this.table.has(u)).map((u) => [u, this.table.get(u)!.location_uid]),
      ),
    );
  }
}

describe('contacts import (CSV and NDJSON exports into the local CRM)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'cb-contacts-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, data: string | Buffer) => {
    const file = join(dir, name);
    writeFileSync(file, data);
    return file;
  };
  const run = (
    file: string,
    sink = new MemorySink(),
    o: { location?: string; dryRun?: boolean } = {},
  ) =>
    importContacts(file.endsWith('.csv') ? csvRows(file) : ndjsonRows(file), sink, {
      location: o.location,
      dryRun: o.dryRun ?? false,
    }).then((summary) => ({ summary, sink }));

  it('reads RFC 4180 CSV with a BOM, CRLF, quoted commas, quotes and line breaks', async () => {
    const file = write(
      'quoted.csv',
      '\ufeffUID,Name,Phone,Email,opt_out_sms,Location,last_seen_at,Notes\r\n' +
        'c1,"Doe, Jane","+1 555 0100",jane@example.com,yes,loc_a,2026-11-30T16:20:00Z,"say ""hi""\r\nthen"\r\n' +
        'c2,Bob,,,0,loc_a,,\r\n',
    );
    const { summary, sink } = await run(file);
    expect(summary).toMatchObject({ rows: 2, inserted: 2, updated: 0, rejected: 0 });
    expect(sink.table.get('c1')).toEqual({
      contact_uid: 'c1',
      name: 'Doe, Jane',
      phone: '+1 555 0100',
      email: 'jane@example.com',
      opt_out_sms: true,
      opt_out_email: false,
      location_uid: 'loc_a',
      last_seen_at: '2026-11-30T16:20:00.000Z',
    });
    expect(sink.table.get('c2')).toMatchObject({ phone: null, email: null, last_seen_at: null });
  });

  it('stores formula-looking cells as the text they are', async () => {
    const file = write(
      'formulas.csv',
      'contact_uid,name,phone,location_uid\n' +
        'c1,"=HYPERLINK(""http://x"",""y"")",+1 555 0101,loc_a\n' +
        'c2,@SUM(A1),-2+3,loc_a\n',
    );
    const { sink } = await run(file);
    expect(sink.table.get('c1')).toMatchObject({
      name: '=HYPERLINK("http://x","y")',
      phone: '+1 555 0101',
    });
    expect(sink.table.get('c2')).toMatchObject({ name: '@SUM(A1)', phone: '-2+3' });
  });

  it('rejects hostile rows by line, never quoting the value, and imports the rest', async () => {
    const secret = 'SECRET-PII-VALUE';
    const big = `${secret}${'x'.repeat(CONTACT_IMPORT_LIMITS.name)}`;
    const file = write(
      'hostile.csv',
      Buffer.concat([
        Buffer.from(
          'contact_uid,name,email,opt_out_email,location_uid\n' +
            `c1,${big},,,loc_a\n` + // line 2: name too long
            `c2,ok,${secret},,loc_a\n` + // line 3: not an email
            `c3,ok,,${secret},loc_a\n` + // line 4: not a boolean
            `bad uid!,ok,,,loc_a\n` + // line 5: uid outside the alphabet
            'c6,ok,,,\n' + // line 6: no location
            'c10,x,,,loc_a,extra\n' + // line 7: six cells under five columns
            'c7,',
        ),
        Buffer.from([0xc3, 0x28]), // line 8: invalid UTF-8
        Buffer.from(',,,loc_a\nc8,fine,,,loc_a\n'),
      ]),
    );
    const { summary, sink } = await run(file);
    expect([...sink.table.keys()]).toEqual(['c8']);
    expect(summary.rejected).toBe(7);
    expect(summary.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(summary.errors[0].error).toMatch(/name is longer than 256/);
    expect(summary.errors[6].error).toMatch(/not valid UTF-8/);
    expect(JSON.stringify(summary)).not.toContain(secret);
  });

  it('refuses the rest of a CSV once a record outgrows the bound (an unclosed quote)', async () => {
    const file = write(
      'unclosed.csv',
      `contact_uid,name,location_uid\nc1,ok,loc_a\nc2,"${'y'.repeat(CONTACT_IMPORT_LIMITS.recordBytes)},loc_a\n`,
    );
    const error = (await run(file).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ContactFileError);
    expect(error.message).toMatch(/^line \d+: a record is longer than 65536 bytes/);
    expect(error.message).not.toContain('yyyy');
  });

  it('upserts by uid: the later duplicate wins, a re-run updates, a dry run writes nothing', async () => {
    const file = write(
      'dupes.ndjson',
      '{"contact_uid":"c1","phone":"+1 555 0001","location_uid":"loc_a"}\n' +
        '\n' +
        '{"contact_uid":"c1","phone":"+1 555 0002","location_uid":"loc_a"}\r\n' +
        '{"contact_uid":"c2","location_uid":"loc_a"}\n',
    );
    const dry = await run(file, new MemorySink(), { dryRun: true });
    expect(dry.summary).toMatchObject({ rows: 3, inserted: 2, duplicates: 1, dry_run: true });
    expect(dry.sink.table.size).toBe(0);
    const first = await run(file);
    expect(first.sink.table.get('c1')?.phone).toBe('+1 555 0002');
    const again = await run(file, first.sink);
    expect(again.summary).toMatchObject({ inserted: 0, updated: 2, duplicates: 1, rejected: 0 });
  });

  it('binds an import to --location: fills empty cells, refuses another tenant’s rows and contacts', async () => {
    const sink = new MemorySink();
    await sink.upsert([
      {
        contact_uid: 'theirs',
        location_uid: 'loc_b',
        phone: null,
        email: null,
        opt_out_sms: false,
        opt_out_email: false,
        last_seen_at: null,
      },
    ]);
    const file = write('tenant.csv', 'contact_uid,location_uid\nc1,\nc2,loc_b\ntheirs,\n');
    const { summary } = await run(file, sink, { location: 'loc_a' });
    expect(sink.table.get('c1')?.location_uid).toBe('loc_a');
    expect(sink.table.has('c2')).toBe(false);
    expect(sink.table.get('theirs')?.location_uid).toBe('loc_b');
    expect(summary.errors).toEqual([
      { line: 3, error: 'location_uid differs from --location' },
      { line: 4, error: 'contact_uid belongs to another location in the local CRM' },
    ]);
  });

  it('rejects NDJSON lines that are not contact objects, and a __proto__ key is inert', async () => {
    const file = write(
      'bad.ndjson',
      '{"contact_uid":"c1","location_uid":"loc_a"\n' +
        '[1,2]\n' +
        '{"contact_uid":42,"location_uid":"loc_a"}\n' +
        '{"__proto__":{"contact_uid":"polluted"},"location_uid":"loc_a"}\n' +
        '{"contact_uid":"c5","location_uid":"loc_a","opt_out_sms":true}\n',
    );
    const { summary, sink } = await run(file);
    expect(summary.errors).toEqual([
      { line: 1, error: 'not valid JSON' },
      { line: 2, error: 'not a JSON object' },
      { line: 3, error: 'contact_uid must be a string' },
      { line: 4, error: 'contact_uid is missing' },
    ]);
    expect(sink.table.get('c5')?.opt_out_sms).toBe(true);
  });

  it('refuses a header naming a column twice, and a file over the size bound before parsing', async () => {
    const twice = write('twice.csv', 'uid,contact_uid\nc1,c2\n');
    await expect(run(twice)).rejects.toThrow(/column contact_uid appears twice/);
    const huge = write('huge.csv', '');
    truncateSync(huge, CONTACT_IMPORT_LIMITS.fileBytes + 1); // sparse: no disk used
    expect(() => checkFileSize(huge)).toThrow(ContactFileError);
  });

  it('never throws on random bytes and never echoes them (seeded)', async () => {
    const { random } = seededRandom('contacts import fuzz');
    for (let round = 0; round < 20; round++) {
      const bytes = Buffer.from(Array.from({ length: 2000 }, () => Math.floor(random() * 256)));
      const body = Buffer.concat([Buffer.from('contact_uid,name,location_uid\n'), bytes]);
      for (const name of ['fuzz.csv', 'fuzz.ndjson']) {
        const file = write(name, body);
        const result = await run(file).catch((error: Error) => error);
        // A broken quote may refuse the whole file; anything else is a per-row rejection.
        if (result instanceof Error) {
          expect(result).toBeInstanceOf(ContactFileError);
          expect(result.message).toMatch(/^line \d+: unreadable CSV \(\w+\)$/);
        } else {
          for (const e of result.summary.errors) {
            expect(bytes.toString('latin1')).not.toContain(e.error);
          }
        }
      }
    }
  });
});
