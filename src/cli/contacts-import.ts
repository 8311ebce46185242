import { type LocalContact, type LocalPodiumContacts } from '@app/podium';

import { CONTACT_IMPORT_LIMITS, toContact } from './contact-rows';
import { ContactFileError, type SourceRow } from './contact-sources';

/** What an import did (or, with --dry-run, would do). Never a field value: they are PII. */
export interface ContactImportSummary {
  dry_run: boolean;
  /** Rows read (blank lines not counted). */
  rows: number;
  /** Contacts new to the table. */
  inserted: number;
  /** Contacts already in it, every field replaced. */
  updated: number;
  /** Rows whose uid came earlier in the file: the later row wins. */
  duplicates: number;
  rejected: number;
  /** The first rejections, by line. */
  errors: { line: number; error: string }[];
  /** Columns the local CRM does not keep, ignored (names only). */
  ignored_columns: string[];
}

export type ContactSink = Pick<LocalPodiumContacts, 'upsert' | 'locationsOf'>;

/** Rows per lookup-and-upsert round trip. */
const BATCH = 500;
const MAX_REPORTED_ERRORS = 100;

/**
 * Upserts the rows of an export by contact uid, a batch at a time (bounded memory, but the
 * set of uids seen, which the duplicate count needs). Idempotent: a re-run after a failure
 * or with the same file converges on the same table. With `location` (`--location`), a
 * contact the table holds in another location is refused rather than moved between tenants.
 */
export async function importContacts(
  rows: AsyncIterable<SourceRow>,
  sink: ContactSink,
  options: { location?: string; dryRun: boolean; ignoredColumns?: () => string[] },
): Promise<ContactImportSummary> {
  const summary: ContactImportSummary = {
    dry_run: options.dryRun,
    rows: 0,
    inserted: 0,
    updated: 0,
    duplicates: 0,
    rejected: 0,
    errors: [],
    ignored_columns: [],
  };
  const seen = new Set<string>();
  let batch: { line: number; contact: LocalContact }[] = [];
  const reject = (line: number, error: string) => {
    summary.rejected += 1;
    if (summary.errors.length < MAX_REPORTED_ERRORS) {
      summary.errors.push({ line, error });
    }
  };

  const flush = async () => {
    const existing = await sink.locationsOf([...new Set(batch.map((r) => r.contact.contact_uid))]);
    const accepted: LocalContact[] = [];
    for (const { line, contact } of batch) {
      const uid = contact.contact_uid;
      const was = existing.get(uid);
      if (options.location !== undefined && was && was !== options.location) {
        reject(line, 'contact_uid belongs to another location in the local CRM');
        continue;
      }
      if (seen.has(uid)) {
        summary.duplicates += 1;
      } else if (existing.has(uid)) {
        summary.updated += 1;
      } else {
        summary.inserted += 1;
      }
      seen.add(uid);
      accepted.push(contact);
    }
    if (!options.dryRun && accepted.length > 0) {
      // Later rows win, within the batch (upsert keeps the last) and across batches.
      await sink.upsert(accepted);
    }
    batch = [];
  };

  for await (const row of rows) {
    summary.rows += 1;
    if (summary.rows > CONTACT_IMPORT_LIMITS.rows) {
      throw new ContactFileError(
        `line ${row.line}: more than ${CONTACT_IMPORT_LIMITS.rows} rows; split the file ` +
          '(rows before this line are imported; a re-run is idempotent)',
      );
    }
    if ('error' in row) {
      reject(row.line, row.error);
      continue;
    }
    const result = toContact(row.fields, options.location);
    if ('error' in result) {
      reject(row.line, result.error);
      continue;
    }
    batch.push({ line: row.line, contact: result.contact });
    if (batch.length >= BATCH) {
      await flush();
    }
  }
  if (batch.length > 0) {
    await flush();
  }
  // A skipped CSV record is reported as soon as the parser sees it, before rows it buffered.
  summary.errors.sort((a, b) => a.line - b.line);
  summary.ignored_columns = options.ignoredColumns?.() ?? [];
  return summary;
}
