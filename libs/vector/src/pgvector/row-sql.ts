import { types } from 'node:util';

import * as pgvector from 'pgvector';

import {
  type CollectionName,
  type VectorFilter,
  type VectorHit,
} from '../interfaces/vector-store.interface';
import { PAYLOAD_COLUMNS, TABLES } from './tables';

/** A row as the searches select it: the columns, a score, and what else a leg adds. */
export type Row = { id: string; content: string; score: number } & Record<string, unknown>;

/** Placeholders of a query's filter values. */
export interface FilterParams {
  contact?: string;
  locations?: string;
  /** The contact's id itself (the dense leg's plan depends on its history's size). */
  contactUid?: string;
  /** Placeholders of the `occurred_at` range's bounds, `[from, to)`. */
  occurred?: { from: string; to: string };
}

/**
 * Pushes the filter's values; returns their placeholders. A time range's bounds go as
 * normalised ISO strings: one that is not a date throws here, before any SQL runs. Only
 * conversations carry a time: other collections ignore the range.
 */
export function filterParams(
  collection: CollectionName,
  filter: VectorFilter | undefined,
  params: unknown[],
): FilterParams {
  const range = collection === 'conversations' ? filter?.occurred_at : undefined;
  return {
    contact: filter?.contact_uid === undefined ? undefined : `$${params.push(filter.contact_uid)}`,
    locations:
      filter?.location_uids === undefined ? undefined : `$${params.push(filter.location_uids)}`,
    contactUid: filter?.contact_uid,
    occurred: range && {
      from: `$${params.push(new Date(range.from).toISOString())}::timestamptz`,
      to: `$${params.push(new Date(range.to).toISOString())}::timestamptz`,
    },
  };
}

/** The time range as a condition on a conversations row (`alias` its table's). */
export const occurredSql = (filter: FilterParams, alias = ''): string | undefined =>
  filter.occurred
    ? `${alias}occurred_at >= ${filter.occurred.from} AND ${alias}occurred_at < ${filter.occurred.to}`
    : undefined;

/**
 * Forgotten windows every search skips until the background purge has deleted them (see
 * `hideContact`): a contact's own searches skip its windows stored before the forget (one
 * index probe, evaluated once per statement); a search across contacts skips a contact being
 * purged whole.
 */
export const PURGES = 'podium_conversation_purges';
const visibleForContact = (contactParam: string, alias = '') =>
  `${alias}stored_at > (SELECT coalesce(max(hidden_before), '-infinity'::timestamptz)
     FROM ${PURGES} WHERE contact_uid = ${contactParam})`;
const visibleAcrossContacts = (alias = '') =>
  `${alias}contact_uid <> ALL(ARRAY(SELECT contact_uid FROM ${PURGES}))`;

/**
 * The lexical leg's postings without the forgotten documents (see `hideContact`), checked
 * inside each term's read, before any LIMIT. Across contacts by the posting's own contact;
 * within one, by the document's `stored_at`, read only while that contact has hidden rows
 * (the cutoff is one probe per statement; NULL short-circuits the OR).
 */
export function visiblePosting(
  collection: CollectionName,
  filter: FilterParams,
): string | undefined {
  if (collection !== 'conversations') {
    return undefined;
  }
  if (!filter.contact) {
    return visibleAcrossContacts('p.');
  }
  const cutoff = `(SELECT max(hidden_before) FROM ${PURGES} WHERE contact_uid = ${filter.contact})`;
  return `(${cutoff} IS NULL OR EXISTS (SELECT 1 FROM ${TABLES.conversations} v
    WHERE v.id = p.doc_id AND v.stored_at > ${cutoff}))`;
}

/**
 * pgvector's text format, by the `pgvector` package; rounded to six decimals first, which
 * parse ~1.7× faster in WASM and lose nothing useful.
 */
export const toVectorLiteral = (v: number[]): string =>
  pgvector.toSql(v.map((x) => Math.round(x * 1e6) / 1e6)) as string;

/**
 * A query vector as a binary parameter (pgvector's `vector_recv` format: int16 dimension,
 * int16 unused, float4s, big-endian). Both drivers send a Buffer in binary; skipping the
 * text round trip (512 numbers formatted here, parsed by the server) cut the /context search
 * statement from 1.8 to 1.2 ms on PGlite. Upserts keep the text form (`text[]` + `unnest`).
 */
export function toVectorParam(v: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(4 + 4 * v.length);
  out.writeInt16BE(v.length, 0);
  out.writeInt16BE(0, 2);
  v.forEach((x, i) => out.writeFloatBE(x, 4 + 4 * i));
  return out;
}

/** The columns every search returns: id, content and the collection's payload. */
export function selectList(collection: CollectionName): string {
  return ['id', 'content', ...PAYLOAD_COLUMNS[collection].map(([name]) => name)].join(', ');
}

/**
 * The dense leg's rows (`score` = cosine), best first, from `q.v`. A contact with a large
 * history (`ownIndex`) walks its own HNSW index (built by `maintain`); a small one is read
 * whole through the contact btree and sorted exactly, which is cheap and exact; unfiltered
 * searches walk the global HNSW index. So the cost is bounded by LARGE_CONTACT_WINDOWS.
 */
export function denseSql(
  collection: CollectionName,
  filter: FilterParams,
  limitParam: string,
  ownIndex: boolean,
): string {
  const table = TABLES[collection];
  const columns = selectList(collection);
  const locations = filter.locations && `location_uid = ANY(${filter.locations}::text[])`;
  const conversations = collection === 'conversations';
  const occurred = occurredSql(filter);
  // A time range holds a few of a large history's windows: read exactly, not by its own index.
  if (filter.contactUid !== undefined && (!ownIndex || occurred)) {
    const where = [
      `contact_uid = ${filter.contact}`,
      ...(locations ? [locations] : []),
      ...(occurred ? [occurred] : []),
      ...(conversations && filter.contact ? [visibleForContact(filter.contact)] : []),
    ];
    return `SELECT ${columns}, 1 - (embedding <=> q.v) AS score FROM ${table}, q
      WHERE ${where.join(' AND ')} ORDER BY score DESC, id LIMIT ${limitParam}`;
  }
  if (filter.contactUid !== undefined) {
    // A large history: the walk of the contact's own HNSW index (a fixed plan, see the
    // conversations_nearest migrations; it skips hidden windows inside the walk, before its
    // LIMIT), joined back for the columns.
    return `SELECT ${columns}, 1 - n.distance AS score
      FROM conversations_nearest((SELECT v FROM q), ${filter.contact}::text,
        ${filter.locations ? `${filter.locations}::text[]` : 'NULL'}, ${limitParam}::int) n
      JOIN ${table} USING (id) ORDER BY score DESC, id`;
  }
  const where = [
    ...(locations ? [locations] : []),
    ...(occurred ? [occurred] : []),
    ...(conversations ? [visibleAcrossContacts()] : []),
  ];
  return `SELECT ${columns}, 1 - (embedding <=> (SELECT v FROM q)) AS score FROM ${table}
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY embedding <=> (SELECT v FROM q) LIMIT ${limitParam}`;
}

/** Rows as the port's hits: payload columns gathered, dates as ISO strings. */
export function toHits<C extends CollectionName>(collection: C, rows: Row[]): VectorHit<C>[] {
  return rows.map((row) => {
    const payload: Record<string, unknown> = {};
    for (const [name] of PAYLOAD_COLUMNS[collection]) {
      const value = row[name];
      // isDate, not instanceof: rows from the PGlite worker thread carry its realm's Date.
      payload[name] = types.isDate(value) ? value.toISOString() : value;
    }
    const hit = {
      id: row.id,
      content: row.content,
      score: Number(row.score),
      payload,
    } as VectorHit<C>;
    if (row.similarity !== undefined && row.similarity !== null) {
      hit.similarity = Number(row.similarity);
    }
    return hit;
  });
}
