import { keyedHash } from '@app/common';

import { TelemetryIds, telemetryIds } from './telemetry-ids';

const KEY = 'telemetry-key-for-tests-0123456789abcdef';
const EMAIL = 'jane.doe@example.com';
const PHONE = '+14155550134';
const hashOf = (id: string) => `h:${keyedHash(KEY, id)}`;
/** Every spelling of the ids a URL, a log line or a span might carry. */
const LEAK = /jane|example\.com|4155550134|415\D{0,3}555\D{0,3}0134/i;

describe('TelemetryIds', () => {
  const sut = new TelemetryIds(KEY);

  it('writes an id as h: and 16 hex characters of HMAC-SHA256 under the key', () => {
    expect(sut.id(EMAIL)).toBe(hashOf(EMAIL));
    expect(sut.id(EMAIL)).toMatch(/^h:[0-9a-f]{16}$/);
    expect(new TelemetryIds('another key of thirty-two chars!').id(EMAIL)).not.toBe(sut.id(EMAIL));
  });

  it.each([
    [`/contacts/${encodeURIComponent(EMAIL)}/history`, `/contacts/${hashOf(EMAIL)}/history`],
    [`/contacts/${EMAIL}/history`, `/contacts/${hashOf(EMAIL)}/history`],
    [`/contacts/${encodeURIComponent(PHONE)}/history`, `/contacts/${hashOf(PHONE)}/history`],
    [`/contacts/ctc_42/history`, `/contacts/${hashOf('ctc_42')}/history`],
    [
      `/v1/vector_stores/${encodeURIComponent(PHONE)}/search`,
      `/v1/vector_stores/${hashOf(PHONE)}/search`,
    ],
    // Podium's "Retrieve a contact", as an outgoing call's url.full.
    [
      `https://api.podium.com/v4/contacts/${encodeURIComponent(EMAIL)}`,
      `https://api.podium.com/v4/contacts/${hashOf(EMAIL)}`,
    ],
    ['/contacts/forget', '/contacts/forget'],
    ['/contacts?limit=20', '/contacts?limit=20'],
    ['/context', '/context'],
  ])('rewrites the id segments of %s', (url, expected) => {
    expect(sut.url(url)).toBe(expected);
  });

  it('keeps route templates (span names, http.route) as they are', () => {
    expect(sut.url('DELETE /contacts/:contact_uid/history')).toBe(
      'DELETE /contacts/:contact_uid/history',
    );
    expect(sut.url('POST /v1/vector_stores/:contact_uid/search')).toBe(
      'POST /v1/vector_stores/:contact_uid/search',
    );
  });

  it('hashes every query value but a short limit, and odd keys too', () => {
    const url = `/contacts?limit=5&contact_uid=${encodeURIComponent(EMAIL)}&${encodeURIComponent(PHONE)}`;
    expect(sut.url(url)).toBe(`/contacts?limit=5&contact_uid=${hashOf(EMAIL)}&${hashOf(PHONE)}`);
    expect(sut.url(`/x?limit=${encodeURIComponent(PHONE)}`)).toBe(`/x?limit=${hashOf(PHONE)}`);
  });

  it('hashes contact-shaped segments of any path (a 404 is logged too)', () => {
    const out = sut.url(`/unknown/${encodeURIComponent(EMAIL)}/${PHONE}/(415)%20555-0134`);
    expect(out).not.toMatch(LEAK);
    expect(out).toContain(hashOf(EMAIL));
  });

  it('drops userinfo and fragments of absolute URLs', () => {
    expect(sut.url('https://user:secret@podium.example/v4/contacts/x#frag')).toBe(
      `https://podium.example/v4/contacts/${hashOf('x')}#`,
    );
  });

  it('never throws on hostile input, and leaves no id behind', () => {
    for (const hostile of [
      `/contacts/%E0%A4%A/history`,
      `/contacts/${EMAIL}%/history?q=%ZZ${EMAIL}`,
      `/contacts/${'a'.repeat(10_000)}@example.com/history`,
      `/contacts/${EMAIL}\u0000/history`,
      `?${EMAIL}=${PHONE}&&&=`,
      `/a//b/${PHONE}`,
    ]) {
      expect(sut.url(hostile)).not.toMatch(LEAK);
    }
  });

  it('scans long runs with no @ in one pass (a backtracking pattern took minutes here)', () => {
    for (const run of ['a'.repeat(50_000), '+1'.repeat(25_000), 'a@'.repeat(25_000)]) {
      expect(sut.text(`${run} ${EMAIL}`)).toContain(hashOf(EMAIL));
      expect(sut.url(`/x/${run}?q=${run}`)).not.toMatch(LEAK);
    }
  });

  it('replaces e-mail- and E.164-shaped runs in free text', () => {
    const out = sut.text(`no contact for ${EMAIL} or ${PHONE} (+1 415-555-0134) at 2026-05-01`);
    expect(out).not.toMatch(LEAK);
    expect(out).toContain(hashOf(EMAIL));
    expect(out).toContain('2026-05-01');
    expect(sut.text('@fastify/otel')).toBe('@fastify/otel');
  });
});

describe('telemetryIds', () => {
  it('is one instance per key, and one random key per process without one', () => {
    expect(telemetryIds(KEY).id(EMAIL)).toBe(hashOf(EMAIL));
    expect(telemetryIds(KEY)).toBe(telemetryIds(KEY));
    expect(telemetryIds()).toBe(telemetryIds(undefined));
    expect(telemetryIds().id(EMAIL)).not.toBe(hashOf(EMAIL));
  });
});
