import { contentHash } from '@app/common';
import { Database } from '@app/database';

import {
  ConversationMessagesRepository,
  type StoredMessage,
} from './conversation-messages.repository';

const message = (
  location: string | null,
  text: string,
  extra: Partial<StoredMessage> = {},
): StoredMessage => {
  const occurred_at = '2026-01-05T10:00:00.000Z';
  const conversation_uid = extra.conversation_uid ?? 'conv_1';
  const turn_key = contentHash('message', conversation_uid, occurred_at, 'customer', text);
  return {
    message_id: 'pod_1',
    turn_key,
    conversation_uid,
    contact_uid: 'ctc_1',
    location_uid: location,
    channel: 'sms',
    occurred_at,
    sender: 'customer',
    text,
    ...extra,
  };
};

/**
 * Issue 36: message ids are unique per location (migration 21). A bound write (`scope`)
 * never finds, moves or blocks another location's row; an unbound one corrects a lone row's
 * location. Old code: the second location's row was a 409 for a bound caller, a move for an
 * unbound one.
 */
describe('ConversationMessagesRepository per-location ids (PGlite)', () => {
  const database = new Database({ dataDir: 'memory://' });
  const sut = new ConversationMessagesRepository(database);
  const rows = (id: string) =>
    database.query<{ location_uid: string | null; text: string; channel: string }>(
      `SELECT location_uid, text, channel FROM conversation_messages
       WHERE message_id = $1 ORDER BY location_uid NULLS FIRST`,
      [id],
    );

  beforeAll(() => database.open(8));
  afterAll(() => database.close());

  it('stores one uid under two locations for two bound callers, each write touching its own row', async () => {
    await sut.save([message('loc_b', 'B text')], ['loc_b']);
    await sut.save([message('loc_a', 'A text')], ['loc_a']);
    await sut.save([message('loc_b', 'B edit', { channel: 'email' })], ['loc_b']);
    expect(await rows('pod_1')).toEqual([
      { location_uid: 'loc_a', text: 'A text', channel: 'sms' },
      { location_uid: 'loc_b', text: 'B text', channel: 'email' },
    ]);
  });

  it('a bound write never moves an unlocated row: it stores its own', async () => {
    const id = { message_id: 'pod_2' };
    await sut.save([message(null, 'unlocated', id)]);
    await sut.save([message('loc_a', 'unlocated', id)], ['loc_a']);
    expect((await rows('pod_2')).map((r) => r.location_uid)).toEqual([null, 'loc_a']);
  });

  it('an unbound write moves a lone row to the named location, and writes only that row when several hold the id', async () => {
    const id = { message_id: 'pod_3' };
    await sut.save([message('loc_wrong', 'lone', id)]);
    await sut.save([message('loc_right', 'lone', id)]);
    expect((await rows('pod_3')).map((r) => r.location_uid)).toEqual(['loc_right']);
    await sut.save([message('loc_a', 'other', { ...id, contact_uid: 'ctc_9' })], ['loc_a']);
    await sut.save([message('loc_c', 'lone', { ...id, channel: 'email' })]);
    expect((await rows('pod_3')).map((r) => [r.location_uid, r.channel])).toEqual([
      ['loc_a', 'sms'],
      ['loc_c', 'email'],
      ['loc_right', 'sms'],
    ]);
  });

  it('a message of another contact under the same id is not moved: the named location gets its own row', async () => {
    const id = { message_id: 'pod_4' };
    await sut.save([message('loc_a', 'first', id)]);
    await sut.save([message('loc_b', 'second', { ...id, contact_uid: 'ctc_other' })]);
    expect((await rows('pod_4')).map((r) => r.location_uid)).toEqual(['loc_a', 'loc_b']);
  });

  it('a re-sent batch already stored in its location sends no relocation statement', async () => {
    const batch = [message('loc_a', 'again', { message_id: 'pod_5' })];
    await sut.save(batch);
    const execute = jest.spyOn(database, 'execute');
    try {
      await sut.save(batch);
      expect(execute.mock.calls.map(([sql]) => sql.trim().split(/\s+/)[0])).toEqual(['INSERT']);
    } finally {
      execute.mockRestore();
    }
  });
});
