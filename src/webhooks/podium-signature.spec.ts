import { createHmac } from 'node:crypto';

import {
  parsePodiumTimestamp,
  SIGNATURE_TOLERANCE_MS,
  verifyPodiumSignature,
} from './podium-signature';

const SECRET = 'podium-webhook-secret';
// The body and timestamp of Podium's own documentation example.
const DOC_TIMESTAMP = '1620771659663';
const DOC_BODY =
  '{"data":{"bar":"apples","foo":"1"},"metadata":{"event_type":"test.event","version":"2021.04.01"}}';
const NOW = Number(DOC_TIMESTAMP) + 1_000;

/** Signed independently of the code under test: HMAC-SHA256 over "<ts>.<body>". */
const mac = (secret: string, ts: string, body: string, encoding: 'hex' | 'base64' = 'hex') =>
  createHmac('sha256', secret).update(`${ts}.${body}`).digest(encoding);

const sut = (
  overrides: Partial<{ body: string; timestamp?: string; signature?: string; secret: string }>,
  now = NOW,
) =>
  verifyPodiumSignature(
    {
      secret: overrides.secret ?? SECRET,
      rawBody: Buffer.from(overrides.body ?? DOC_BODY, 'utf8'),
      timestamp: 'timestamp' in overrides ? overrides.timestamp : DOC_TIMESTAMP,
      signature:
        'signature' in overrides ? overrides.signature : mac(SECRET, DOC_TIMESTAMP, DOC_BODY),
    },
    now,
  );

describe('verifyPodiumSignature', () => {
  it('accepts Podium’s documented signing: hex HMAC-SHA256 of "<timestamp>.<raw body>"', () => {
    expect(sut({})).toEqual({ ok: true });
  });

  it('accepts the same MAC in base64 and in upper-case hex (the docs do not fix an encoding)', () => {
    expect(sut({ signature: mac(SECRET, DOC_TIMESTAMP, DOC_BODY, 'base64') })).toEqual({
      ok: true,
    });
    expect(sut({ signature: mac(SECRET, DOC_TIMESTAMP, DOC_BODY).toUpperCase() })).toEqual({
      ok: true,
    });
  });

  it('covers the exact bytes: non-ASCII text and whitespace must not be re-serialised', () => {
    const body = '{ "data": {"body": "Señor — café ☕"},\n "metadata": {"event_type": "x"} }';
    expect(sut({ body, signature: mac(SECRET, DOC_TIMESTAMP, body) })).toEqual({ ok: true });
  });

  it.each([
    ['no signature header', { signature: undefined }],
    ['no timestamp header', { timestamp: undefined }],
    ['an empty signature', { signature: '' }],
  ])('reports a missing signature for %s', (_label, overrides) => {
    expect(sut(overrides)).toMatchObject({ ok: false, code: 'webhook_signature_missing' });
  });

  it.each([
    ['another secret', { signature: mac('not-the-secret', DOC_TIMESTAMP, DOC_BODY) }],
    ['a tampered body', { body: DOC_BODY.replace('apples', 'pears') }],
    ['a tampered timestamp', { timestamp: String(Number(DOC_TIMESTAMP) + 1) }],
    ['a truncated signature', { signature: mac(SECRET, DOC_TIMESTAMP, DOC_BODY).slice(0, 63) }],
    ['garbage', { signature: 'sha256=not-hex-at-all' }],
    [
      'a MAC of the body alone',
      { signature: createHmac('sha256', SECRET).update(DOC_BODY).digest('hex') },
    ],
    [
      'a non-numeric timestamp',
      { timestamp: 'yesterday', signature: mac(SECRET, 'yesterday', DOC_BODY) },
    ],
  ])('rejects %s as invalid', (_label, overrides) => {
    expect(sut(overrides)).toMatchObject({ ok: false, code: 'webhook_signature_invalid' });
  });

  it('rejects a genuine delivery replayed after the tolerance, in either direction', () => {
    const late = Number(DOC_TIMESTAMP) + SIGNATURE_TOLERANCE_MS + 1;
    const early = Number(DOC_TIMESTAMP) - SIGNATURE_TOLERANCE_MS - 1;
    expect(sut({}, late)).toMatchObject({ ok: false, code: 'webhook_timestamp_stale' });
    expect(sut({}, early)).toMatchObject({ ok: false, code: 'webhook_timestamp_stale' });
    expect(sut({}, Number(DOC_TIMESTAMP) + SIGNATURE_TOLERANCE_MS)).toEqual({ ok: true });
  });

  it('never reports a forgery as merely stale', () => {
    const late = Number(DOC_TIMESTAMP) + SIGNATURE_TOLERANCE_MS * 10;
    expect(sut({ signature: mac('wrong', DOC_TIMESTAMP, DOC_BODY) }, late)).toMatchObject({
      code: 'webhook_signature_invalid',
    });
  });
});

describe('parsePodiumTimestamp', () => {
  it('reads milliseconds as documented, and 10-digit values as seconds', () => {
    expect(parsePodiumTimestamp('1620771659663')).toBe(1620771659663);
    expect(parsePodiumTimestamp('1620771659')).toBe(1620771659000);
    expect(parsePodiumTimestamp('-1')).toBeUndefined();
    expect(parsePodiumTimestamp('1e12')).toBeUndefined();
  });
});
