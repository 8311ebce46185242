import { deliverPodiumEvent, podiumEvent, podiumMessage } from '../fakes/podium-webhooks';
import { postJson } from './app';

const MINUTE = 60_000;

/**
 * A contact's history for the residue scans, by both write routes: the first three words in
 * messages through the ingest API, the fourth in a `message.received` webhook. Returns the
 * webhook's event (a suite may also dead-letter it).
 */
export async function seedResidueHistory(
  url: string,
  webhookSecret: string,
  contact: string,
  words: string[],
  at: number,
): Promise<ReturnType<typeof podiumEvent>> {
  const ingest = await postJson(
    `${url}/ingest/conversations`,
    words.slice(0, 3).map((w, i) => ({
      conversation_uid: `conv_${contact}`,
      contact_uid: contact,
      location_uid: 'loc_residue',
      channel: 'sms',
      occurred_at: new Date(at + i * MINUTE).toISOString(),
      sender: i % 2 ? 'agent' : 'customer',
      text: `Please note the word ${w} for my order.`,
    })),
  );
  expect(ingest.status).toBe(200);
  const event = podiumEvent(
    'message.received',
    podiumMessage({
      contactUid: contact,
      conversationUid: `conv_${contact}`,
      locationUid: 'loc_residue',
      createdAt: new Date(at + 5 * MINUTE).toISOString(),
      body: `And the word ${words[3]} too.`,
    }),
  );
  expect((await deliverPodiumEvent(`${url}/webhooks/podium`, webhookSecret, event)).status).toBe(
    202,
  );
  return event;
}
