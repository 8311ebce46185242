import { createHmac } from 'node:crypto';

/** Hex characters kept by default: 64 bits, enough to tell millions of ids apart. */
const DEFAULT_HEX_CHARS = 16;

/**
 * HMAC-SHA256 of `value` under `key`, as the first `hexChars` hex characters. Unlike a plain
 * hash, it cannot be reversed by hashing every phone number: only the key's holder can tell
 * which id a hash stands for (and recompute it to search for one).
 */
export function keyedHash(
  key: string | Buffer,
  value: string,
  hexChars: number = DEFAULT_HEX_CHARS,
): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex').slice(0, hexChars);
}
