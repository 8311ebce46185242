import { type Candidate } from './types';

/** A sortable column of the pool table: a name, a header and how to read its value. */
export interface Column {
  key: string;
  label: string;
  value: (c: Candidate) => number | string | null;
  /** Numbers show this many decimals. */
  digits?: number;
}

export type Direction = 'ascending' | 'descending';

/**
 * The pool's rows sorted by one column. Missing values (a BM25 rank of a dense-only hit) go
 * last whichever the direction, so the rows that have the value stay together; ties keep the
 * incoming order (the API's: best score first).
 */
export function sortRows(
  rows: readonly Candidate[],
  column: Column,
  direction: Direction,
): Candidate[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: column.value(row) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) {
        return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
      }
      const order =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value));
      return order * sign || a.index - b.index;
    })
    .map((x) => x.row);
}

/** Every column: the two lists' signals, then each score component the pool has, then the rest. */
export function poolColumns(rows: readonly Candidate[]): Column[] {
  const parts = [...new Set(rows.flatMap((r) => Object.keys(r.components ?? {})))];
  return [
    { key: 'score', label: 'Score', value: (c) => c.score, digits: 4 },
    { key: 'outcome', label: 'Outcome', value: (c) => c.outcome },
    { key: 'dense_rank', label: 'Dense rank', value: (c) => c.dense_rank },
    { key: 'cosine', label: 'Cosine', value: (c) => c.cosine, digits: 4 },
    { key: 'bm25_rank', label: 'BM25 rank', value: (c) => c.bm25_rank },
    { key: 'bm25_score', label: 'BM25 score', value: (c) => c.bm25_score, digits: 3 },
    ...parts.map((part) => ({
      key: `component:${part}`,
      label: `Fusion ${part}`,
      value: (c: Candidate) => c.components?.[part] ?? null,
      digits: 4,
    })),
    { key: 'occurred_at', label: 'Date', value: (c) => c.occurred_at.slice(0, 10) },
    { key: 'channel', label: 'Channel', value: (c) => c.channel },
    { key: 'id', label: 'Window', value: (c) => c.id },
  ];
}
