import { LIVE_FIELDS, type LocalContact } from '@app/podium';

import { UID_PATTERN } from '../common/api-docs';

/** Bounds of `contacts import`: an export this size is a job for a few minutes, not hours. */
export const CONTACT_IMPORT_LIMITS = {
  fileBytes: 256 * 1024 * 1024,
  rows: 1_000_000,
  /** One CSV record or NDJSON line. */
  recordBytes: 64 * 1024,
  uid: 128,
  name: 256,
  phone: 64,
  email: 320,
} as const;

/** The columns (CSV header) or keys (NDJSON) an import reads; `uid`/`location` are aliases. */
export const CONTACT_COLUMNS = ['contact_uid', 'name', ...LIVE_FIELDS] as const;
type ContactColumn = (typeof CONTACT_COLUMNS)[number];

const ALIASES: Record<string, ContactColumn> = { uid: 'contact_uid', location: 'location_uid' };

/** A header cell as a column name: trimmed, lower case, an alias resolved. */
export function columnName(header: string): string {
  const name = header.trim().toLowerCase();
  return ALIASES[name] ?? name;
}

export const isContactColumn = (name: string): name is ContactColumn =>
  (CONTACT_COLUMNS as readonly string[]).includes(name);

const UID = new RegExp(UID_PATTERN);
// eslint-disable-next-line no-control-regex -- control characters are what it rejects
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const BOOLEANS: Record<string, boolean> = {
  '': false,
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
};
/** Dates a CRM export may carry: from the epoch to the end of year 9999. */
const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** A row as read: column name → cell (CSV: string; NDJSON: any JSON value). */
export type ContactFields = Record<string, unknown>;

/** A usable contact, or why not; an error names the column, never its value (PII). */
export type ContactResult = { contact: LocalContact } | { error: string };

class RowError extends Error {}

/** A cell as text (`undefined` for empty or absent), refusing what Postgres or a log should not see. */
function text(fields: ContactFields, column: ContactColumn, max: number): string | undefined {
  const value = fields[column];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new RowError(`${column} must be a string`);
  }
  // csv-parse and readline decode bad UTF-8 to U+FFFD; a real export has none.
  if (value.includes('\ufffd')) {
    throw new RowError(`${column} is not valid UTF-8`);
  }
  if (CONTROL.test(value)) {
    throw new RowError(`${column} contains control characters`);
  }
  const trimmed = value.trim();
  if (trimmed.length > max) {
    throw new RowError(`${column} is longer than ${max} characters`);
  }
  return trimmed === '' ? undefined : trimmed;
}

function uid(fields: ContactFields, column: ContactColumn): string | undefined {
  const value = text(fields, column, CONTACT_IMPORT_LIMITS.uid);
  if (value !== undefined && !UID.test(value)) {
    throw new RowError(`${column} has characters outside ${UID_PATTERN}`);
  }
  return value;
}

function flag(fields: ContactFields, column: ContactColumn): boolean {
  const value = fields[column];
  if (typeof value === 'boolean') {
    return value;
  }
  const parsed = BOOLEANS[(text(fields, column, 64) ?? '').toLowerCase()];
  if (parsed === undefined) {
    throw new RowError(`${column} must be true, false, 1, 0, yes, no or empty`);
  }
  return parsed;
}

function time(fields: ContactFields, column: ContactColumn): string | null {
  const value = text(fields, column, 40);
  if (value === undefined) {
    return null;
  }
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !Number.isFinite(ms) || ms < 0 || ms > MAX_TIME) {
    throw new RowError(`${column} must be an ISO 8601 date between 1970 and 9999`);
  }
  return new Date(ms).toISOString();
}

/**
 * One exported row as a local-CRM contact. Cells are stored as the text they are: a cell
 * that looks like a spreadsheet formula (`=SUM(…)`, `+1 555…`, `@x`) is data here, never
 * evaluated. `location` is the import's `--location`: it fills an empty cell, and a row of
 * another location is refused (an import binds to one tenant). Every contact has a location,
 * so a tenant-bound key reads only its own.
 */
export function toContact(fields: ContactFields, location?: string): ContactResult {
  try {
    const contactUid = uid(fields, 'contact_uid');
    if (contactUid === undefined) {
      throw new RowError('contact_uid is missing');
    }
    const rowLocation = uid(fields, 'location_uid');
    if (location !== undefined && rowLocation !== undefined && rowLocation !== location) {
      throw new RowError('location_uid differs from --location');
    }
    const locationUid = rowLocation ?? location;
    if (locationUid === undefined) {
      throw new RowError('location_uid is missing (add the column or pass --location)');
    }
    const email = text(fields, 'email', CONTACT_IMPORT_LIMITS.email);
    if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw new RowError('email is not an address');
    }
    return {
      contact: {
        contact_uid: contactUid,
        name: text(fields, 'name', CONTACT_IMPORT_LIMITS.name),
        phone: text(fields, 'phone', CONTACT_IMPORT_LIMITS.phone) ?? null,
        email: email ?? null,
        opt_out_sms: flag(fields, 'opt_out_sms'),
        opt_out_email: flag(fields, 'opt_out_email'),
        location_uid: locationUid,
        last_seen_at: time(fields, 'last_seen_at'),
      },
    };
  } catch (error) {
    if (error instanceof RowError) {
      return { error: error.message };
    }
    throw error;
  }
}
