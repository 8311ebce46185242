import { createHash } from 'node:crypto';

/** sha256 hex of the parts joined with a unit separator, so ('a','bc') ≠ ('ab','c'). */
export function contentHash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u001f')).digest('hex');
}

/**
 * A deterministic UUID (RFC 4122 layout, version 5-style bits) from a content hash. Both
 * stores use it as the primary key, so a re-run of the same ingest upserts the same ids.
 */
export function uuidFromHash(hexHash: string): string {
  const h = hexHash.slice(0, 32).split('');
  h[12] = '5';
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}
