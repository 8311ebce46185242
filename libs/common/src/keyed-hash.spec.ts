import { createHmac } from 'node:crypto';

import { keyedHash } from './keyed-hash';

describe('keyedHash', () => {
  it('is HMAC-SHA256 under the key, truncated to 16 hex characters by default', () => {
    const sut = keyedHash('k'.repeat(32), 'jane.doe@example.com');
    const full = createHmac('sha256', 'k'.repeat(32)).update('jane.doe@example.com').digest('hex');
    expect(sut).toBe(full.slice(0, 16));
    expect(keyedHash('k'.repeat(32), 'jane.doe@example.com', 32)).toBe(full.slice(0, 32));
  });

  it('depends on the key: another key gives another hash of the same id', () => {
    expect(keyedHash('a'.repeat(32), '+14155550134')).not.toBe(
      keyedHash('b'.repeat(32), '+14155550134'),
    );
  });

  it('hashes the UTF-8 bytes, so hostile input (NUL, astral, lone surrogates) is just input', () => {
    for (const hostile of ['\u0000', '😀'.repeat(1000), '\ud800', '']) {
      expect(keyedHash('k', hostile)).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});
