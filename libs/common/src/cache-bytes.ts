/**
 * Byte bounds for in-memory caches keyed by caller input. A count bound alone is no memory
 * bound when the key is a caller's text: 20,000 entries of 20,000-character candidates hold
 * 800 MB. These helpers give an `LRUCache` a `maxSize` in bytes and a `sizeCalculation` that
 * charges each entry its key, its value and its bookkeeping, so the bound holds however large
 * the texts are (an entry larger than the whole budget is simply not stored).
 *
 * The sizes are upper estimates of V8's heap, not exact: a string is charged two bytes per
 * UTF-16 unit (V8 stores Latin-1 text in one), a number eight, an object header sixteen.
 */

/** An LRU entry's own bookkeeping (its slots in the cache's arrays and map), roughly. */
const ENTRY_BYTES = 64;
/** A heap object's header and length fields, roughly. */
const HEADER_BYTES = 16;

/** Heap bytes a string may hold. */
export function stringBytes(text: string): number {
  return HEADER_BYTES + 2 * text.length;
}

/** Heap bytes of a boxed number. */
export const NUMBER_BYTES = HEADER_BYTES;

/** Heap bytes of an array of numbers (a packed double array). */
export function numbersBytes(values: readonly number[]): number {
  return HEADER_BYTES + 8 * values.length;
}

/** Heap bytes of a collection of strings (an array or a set, one hash slot per member). */
export function stringsBytes(values: Iterable<string>): number {
  let bytes = HEADER_BYTES;
  for (const value of values) {
    bytes += stringBytes(value) + HEADER_BYTES;
  }
  return bytes;
}

/** Heap bytes of a small JSON-shaped record, from its JSON text (a cheap, generous proxy). */
export function jsonBytes(value: unknown): number {
  return HEADER_BYTES + 2 * (JSON.stringify(value)?.length ?? 0);
}

/** The `LRUCache` options that bound a string-keyed cache in bytes: spread them in. */
export interface ByteBound<V> {
  maxSize: number;
  sizeCalculation: (value: V, key: string) => number;
}

/**
 * `maxSize` and `sizeCalculation` for an `LRUCache<string, V>` holding at most `maxBytes`
 * (estimated) of keys, values and bookkeeping. Keep a `max` beside it where a count bound
 * also matters (it preallocates the cache's arrays).
 */
export function byteBound<V>(maxBytes: number, valueBytes: (value: V) => number): ByteBound<V> {
  return {
    maxSize: maxBytes,
    sizeCalculation: (value, key) => ENTRY_BYTES + stringBytes(key) + valueBytes(value),
  };
}
