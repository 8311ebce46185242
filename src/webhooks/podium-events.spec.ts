import { parseDelivery, toAction, WebhookPayloadError } from './podium-events';

const RECEIVED_AT = new Date('2026-12-01T10:00:00.000Z');
const body = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

/** A message object as Podium's webhook sends it (trimmed to the fields we read + extras). */
const message = (overrides: Record<string, unknown> = {}) => ({
  uid: 'msg-1',
  body: 'Is the walnut table back in stock?',
  createdAt: '2026-11-30T09:15:00Z',
  items: [{ uid: 'item-1', type: 'text', body: 'Is the walnut table back in stock?' }],
  contact: { uid: 'ctc-1', name: 'Pat' },
  conversation: { uid: 'conv-1', channel: { type: 'SMS', identifier: '+15550100' } },
  location: { uid: 'loc-1', organizationUid: 'org-1' },
  ...overrides,
});

describe('parseDelivery', () => {
  it('reads the type and event uid in camelCase or the documented snake_case', () => {
    expect(
      parseDelivery(body({ data: {}, metadata: { eventType: 'contact.updated', eventUid: 'e1' } })),
    ).toMatchObject({ eventId: 'e1', type: 'contact.updated' });
    expect(
      parseDelivery(body({ data: {}, metadata: { event_type: 'message.sent', event_uid: 'e2' } })),
    ).toMatchObject({ eventId: 'e2', type: 'message.sent' });
  });

  it('falls back to a hash of the raw body, equal for a byte-identical redelivery', () => {
    const raw = body({ data: { x: 1 }, metadata: { event_type: 'contact.updated' } });
    const a = parseDelivery(raw);
    expect(a.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(parseDelivery(Buffer.from(raw)).eventId).toBe(a.eventId);
    expect(
      parseDelivery(body({ data: { x: 2 }, metadata: { event_type: 'contact.updated' } })).eventId,
    ).not.toBe(a.eventId);
  });

  it.each([
    ['not JSON', Buffer.from('{"data":')],
    ['an array', body([{ metadata: { event_type: 'x' } }])],
    ['no metadata', body({ data: {} })],
    ['a blank type', body({ metadata: { eventType: '  ' } })],
  ])('rejects %s with invalid_webhook_payload', (_label, raw) => {
    let thrown: unknown;
    try {
      parseDelivery(raw);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid_webhook_payload', httpStatus: 400 });
  });
});

describe('toAction', () => {
  const alice = { uid: 'ctc-alice', name: 'Alice', channels: [] };
  const alice2 = { uid: 'ctc-alice-dup', name: 'Alice', channels: [] };

  it('contact.updated and contact.created invalidate the contact', () => {
    const data = { before: null, after: alice, errors: [] };
    expect(toAction('contact.updated', data, RECEIVED_AT)).toEqual({
      kind: 'invalidate',
      contactUids: ['ctc-alice'],
    });
    expect(toAction('contact.created', data, RECEIVED_AT)).toMatchObject({ kind: 'invalidate' });
  });

  it('contact.deleted deletes the contact named in before (or after)', () => {
    expect(toAction('contact.deleted', { before: alice, after: null }, RECEIVED_AT)).toEqual({
      kind: 'delete',
      contactUids: ['ctc-alice'],
    });
    expect(toAction('contact.deleted', { after: alice }, RECEIVED_AT)).toMatchObject({
      contactUids: ['ctc-alice'],
    });
  });

  it('contact.deleted names every id the history may be stored under', () => {
    const pat = {
      uid: 'ctc-pat',
      channels: [{ type: 'PHONE', identifier: '+15550199' }, { identifier: 'pat@example.com' }],
      phoneNumbers: ['+15550199', '+15550100'],
      emails: ['pat@example.com'],
    };
    expect(toAction('contact.deleted', { before: pat }, RECEIVED_AT)).toEqual({
      kind: 'delete',
      contactUids: ['ctc-pat', '+15550199', 'pat@example.com', '+15550100'],
    });
  });

  it('keys a message by Podium uid for the embedded CRM, by channel identifier for the api CRM', () => {
    const byUid = toAction('message.received', message(), RECEIVED_AT);
    const byChannel = toAction('message.received', message(), RECEIVED_AT, 'channel_identifier');
    expect(byUid).toMatchObject({ kind: 'ingest', record: { contact_uid: 'ctc-1' } });
    expect(byChannel).toMatchObject({ kind: 'ingest', record: { contact_uid: '+15550100' } });
    // No identifier on the channel: the uid is all there is.
    const bare = message({ conversation: { uid: 'conv-1', channel: { type: 'SMS' } } });
    expect(toAction('message.sent', bare, RECEIVED_AT, 'channel_identifier')).toMatchObject({
      record: { contact_uid: 'ctc-1' },
    });
  });

  it.each([
    ['SMS', 'sms'],
    ['web_chat', 'web_chat'],
    ['Google Business', 'google_business'],
    ['+1 415 555 0132', 'unknown'],
    ['alice@example.com', 'unknown'],
    ['sms4155550132', 'unknown'],
    ['x'.repeat(40), 'unknown'],
    [42, 'unknown'],
  ])('holds the channel type %j to the ingest rule for channels (%s)', (type, channel) => {
    const hostile = message({ conversation: { uid: 'conv-1', channel: { type } } });
    expect(toAction('message.received', hostile, RECEIVED_AT)).toMatchObject({
      record: { channel },
    });
  });

  it('contact.merged moves history from before (merged away) to after (survivor)', () => {
    expect(toAction('contact.merged', { before: alice2, after: alice }, RECEIVED_AT)).toEqual({
      kind: 'merge',
      fromContactUid: 'ctc-alice-dup',
      toContactUid: 'ctc-alice',
      contactUids: ['ctc-alice-dup', 'ctc-alice'],
    });
    // A merge into itself only changes the contact.
    expect(toAction('contact.merged', { before: alice, after: alice }, RECEIVED_AT)).toEqual({
      kind: 'invalidate',
      contactUids: ['ctc-alice'],
    });
  });

  it.each([
    ['contact.merged' as const, { after: alice }],
    ['contact.updated' as const, { before: null, after: { name: 'no uid' } }],
    ['contact.deleted' as const, {}],
    ['message.received' as const, message({ contact: undefined })],
    ['message.sent' as const, message({ conversation: { channel: { type: 'sms' } } })],
    ['message.received' as const, null],
  ])('%s without the ids it needs is a permanent payload error', (type, data) => {
    expect(() => toAction(type, data, RECEIVED_AT)).toThrow(WebhookPayloadError);
  });

  it('message.received becomes one customer turn for /ingest/conversations', () => {
    expect(toAction('message.received', message(), RECEIVED_AT)).toEqual({
      kind: 'ingest',
      record: {
        message_uid: 'msg-1',
        conversation_uid: 'conv-1',
        contact_uid: 'ctc-1',
        location_uid: 'loc-1',
        channel: 'sms',
        occurred_at: '2026-11-30T09:15:00.000Z',
        sender: 'customer',
        text: 'Is the walnut table back in stock?',
      },
    });
  });

  it('message.sent is an agent turn; items stand in for an empty body; time falls back', () => {
    const action = toAction(
      'message.sent',
      message({
        body: '',
        createdAt: undefined,
        location: undefined,
        conversation: { uid: 'conv-1' },
        items: [{ body: 'Yes, it ships Friday.' }, { attachmentUrl: 'https://x/y.png' }],
      }),
      RECEIVED_AT,
    );
    expect(action).toEqual({
      kind: 'ingest',
      record: {
        message_uid: 'msg-1',
        conversation_uid: 'conv-1',
        contact_uid: 'ctc-1',
        location_uid: undefined,
        channel: 'unknown',
        occurred_at: RECEIVED_AT.toISOString(),
        sender: 'agent',
        text: 'Yes, it ships Friday.',
      },
    });
  });

  it('skips attachment-only messages, and caps text at the ingest limit', () => {
    expect(
      toAction('message.received', message({ body: null, items: [{ body: '' }] }), RECEIVED_AT),
    ).toEqual({ kind: 'skip', reason: 'message has no text' });
    const long = toAction('message.received', message({ body: 'a'.repeat(25_000) }), RECEIVED_AT);
    expect(long.kind === 'ingest' && long.record.text.length).toBe(20_000);
  });

  it('caps text on a character boundary: an emoji across the limit is dropped whole', () => {
    // Ingest refuses a lone surrogate: a cut through the emoji dead-lettered the message.
    const body = `${'a'.repeat(19_999)}\u{1f600}${'b'.repeat(10)}`;
    const long = toAction('message.received', message({ body }), RECEIVED_AT);
    expect(long.kind === 'ingest' && long.record.text).toBe('a'.repeat(19_999));
    const whole = `${'a'.repeat(19_998)}\u{1f600}${'b'.repeat(10)}`;
    const kept = toAction('message.received', message({ body: whole }), RECEIVED_AT);
    expect(kept.kind === 'ingest' && kept.record.text).toBe(`${'a'.repeat(19_998)}\u{1f600}`);
  });
});
