import { Database } from '@app/database';
import { LocalPodiumContacts } from '@app/podium';
import { type Command, InvalidArgumentError } from 'commander';

import { UID_PATTERN } from '../common/api-docs';
import { withAppContext } from './cli-context';
import { CONTACT_IMPORT_LIMITS, isContactColumn } from './contact-rows';
import {
  checkFileSize,
  ContactFileError,
  contactFormat,
  csvRows,
  ndjsonRows,
  type SourceRow,
} from './contact-sources';
import { type ContactImportSummary, importContacts } from './contacts-import';

const MAX_IGNORED_REPORTED = 20;

/** Records the names of columns the import does not keep, bounded (a hostile file has many). */
async function* noteIgnored(rows: AsyncIterable<SourceRow>, ignored: Set<string>) {
  for await (const row of rows) {
    if ('fields' in row) {
      for (const name of Object.keys(row.fields)) {
        if (!isContactColumn(name) && ignored.size < MAX_IGNORED_REPORTED) {
          ignored.add(name.slice(0, 64));
        }
      }
    }
    yield row;
  }
}

export interface ContactsImportOptions {
  format?: string;
  location?: string;
  dryRun?: boolean;
}

/**
 * `context-bridge contacts import FILE`: loads a CRM export into the local CRM's table
 * (`podium_contacts`), whatever PODIUM_PROVIDER is now, so it can be filled before the
 * server is switched to `local`. Everything is checked before the database is opened that
 * can be (format, size).
 */
export async function contactsImportCommand(
  file: string,
  options: ContactsImportOptions,
): Promise<ContactImportSummary> {
  const format = contactFormat(file, options.format);
  checkFileSize(file);
  const ignored = new Set<string>();
  return withAppContext(async (ctx) => {
    const rows = format === 'csv' ? csvRows(file) : ndjsonRows(file);
    return importContacts(noteIgnored(rows, ignored), new LocalPodiumContacts(ctx.get(Database)), {
      location: options.location,
      dryRun: options.dryRun === true,
      ignoredColumns: () => [...ignored],
    });
  });
}

const location = (value: string) => {
  if (value.length > CONTACT_IMPORT_LIMITS.uid || !new RegExp(UID_PATTERN).test(value)) {
    throw new InvalidArgumentError(`must be a location uid (${UID_PATTERN}, at most 128)`);
  }
  return value;
};

export function registerContactsCommands(program: Command): void {
  const contacts = program
    .command('contacts')
    .description('the local CRM (PODIUM_PROVIDER=local): load your own contacts');
  contacts
    .command('import')
    .description(
      'upsert contacts by uid from a CSV (header row) or NDJSON export: contact_uid (or uid), ' +
        'name, phone, email, opt_out_sms, opt_out_email, location_uid (or location), ' +
        'last_seen_at; other columns are ignored. Prints inserted/updated/rejected; exit 2 ' +
        'when a row was rejected',
    )
    .argument('<file>', 'the export')
    .option('--format <format>', 'csv | ndjson (default: from the extension)')
    .option(
      '--location <uid>',
      'location of rows without one; rows of another are rejected',
      location,
    )
    .option('--dry-run', 'check and count, write nothing')
    .action(async (file: string, o: ContactsImportOptions) => {
      try {
        const summary = await contactsImportCommand(file, o);
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        process.exitCode = summary.rejected > 0 ? 2 : 0;
      } catch (error) {
        if (error instanceof ContactFileError) {
          process.stderr.write(`error: ${error.message}\n`);
          process.exitCode = 1;
          return;
        }
        throw error;
      }
    });
}
