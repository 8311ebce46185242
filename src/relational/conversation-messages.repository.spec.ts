import { contentHash } from '@app/common';
import { Database } from '@app/database';

import {
  ConversationMessagesRepository,
  type StoredMessage,
} from './conversation-messages.repository';

const message = (conversation: number, turn: number, uid?: string): StoredMessage => {
  const occurred_at = new Date(Date.UTC(2026, 0, 1, 0, conversation, turn)).toISOString();
  const text = `turn ${turn} of conversation ${conversation}`;
  const turn_key = contentHash('message', `conv_${conversation}`, occurred_at, 'customer', text);
  return {
    message_id: uid ?? turn_key,
    turn_key,
    conversation_uid: `conv_${conversation}`,
    contact_uid: `ctc_${conversation % 7}`,
    location_uid: 'loc_a',
    channel: 'sms',
    occurred_at,
    sender: 'customer',
    text,
  };
};

/**
 * A batch's turns already stored are found by conversation (issue 42, migration 20): the
 * index holds one entry per conversation instead of a 64-character key per message, and a
 * message met again under its other id still keeps the id it was stored with.
 */
describe('ConversationMessagesRepository turn lookup (PGlite)', () => {
  const database = new Database({ dataDir: 'memory://' });
  const sut = new ConversationMessagesRepository(database);

  beforeAll(async () => {
    await database.open(8);
    for (let c = 0; c < 300; c += 100) {
      const batch = Array.from({ length: 100 }, (_, i) =>
        Array.from({ length: 8 }, (__, t) => message(c + i, t)),
      ).flat();
      await sut.save(batch);
    }
    await database.exec('ANALYZE conversation_messages');
  });
  afterAll(() => database.close());

  it('looks turns up through an index a quarter the size of the primary key', async () => {
    const [lookup] = await database.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_relation_size(c.oid) AS bytes FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
       WHERE i.indrelid = 'conversation_messages'::regclass AND a.attname = 'conversation_uid'`,
    );
    const [key] = await database.query<{ bytes: string }>(
      `SELECT pg_relation_size('conversation_messages_location_message') AS bytes`,
    );
    expect(lookup).toBeDefined();
    // Before migration 20: (conversation_uid, turn_key), larger than the key itself.
    expect(Number(lookup.bytes)).toBeLessThan(Number(key.bytes) / 4);
  });

  it('a message met again with its uid keeps the one row it was stored as', async () => {
    const again = message(42, 3, 'pod_msg_42_3');
    await sut.save([again]);
    const rows = await database.query<{ message_id: string }>(
      `SELECT message_id FROM conversation_messages WHERE turn_key = $1`,
      [again.turn_key],
    );
    expect(rows).toEqual([{ message_id: again.turn_key }]);
  });

  it('a uid-less message adopts the uid its turn was stored under', async () => {
    const withUid = message(500, 1, 'pod_msg_500_1');
    await sut.save([withUid]);
    await sut.save([message(500, 1)]);
    const rows = await database.query<{ message_id: string }>(
      `SELECT message_id FROM conversation_messages WHERE conversation_uid = 'conv_500'`,
    );
    expect(rows).toEqual([{ message_id: 'pod_msg_500_1' }]);
  });
});
