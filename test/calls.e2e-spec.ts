import { LocalPodiumContacts, PODIUM_CONTACTS } from '@app/podium';

import { callerTracker } from '../src/auth/rate-limiter';
import { type ContextBundle } from '../src/context/context.dto';
import { ContextService } from '../src/context/context.service';
import { type CallIdentity } from '../src/context/speculative/call-sessions';
import { CallTurns } from '../src/context/speculative/call-turns';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { untilSpeculated } from './support/speculation';
import { waitUntil } from './support/wait';

const CONTACT = 'ctc_voice';
const msg = (conversation: string, day: number, text: string) => ({
  conversation_uid: conversation,
  contact_uid: CONTACT,
  location_uid: 'loc_main',
  channel: 'sms',
  occurred_at: new Date(Date.UTC(2026, 0, day, 12)).toISOString(),
  sender: 'customer',
  text,
});

interface Interim {
  accepted: boolean;
  speculation: string;
}

describe('calls: prefetch, speculation on interim speech, the call’s own memory (e2e)', () => {
  let t: TestApp;
  const context = (body: Record<string, unknown>) =>
    postJson<ContextBundle & Interim & { error?: string }>(`${t.url}/context`, {
      contact_uid: CONTACT,
      location_uid: 'loc_main',
      ...body,
    });
  const interim = async (callId: string, transcript: string) => {
    const sent = await context({ call_id: callId, transcript, is_final: false });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ accepted: true, speculation: 'scheduled' });
  };
  /**
   * Sends `sentence` as a speech engine would: interim hypotheses growing word by word. Returns
   * once the call holds a finished search that serves it (a loaded box searches shorter ones).
   */
  const speak = async (callId: string, sentence: string) => {
    // Speculation starts only once finals have left the process idle for a moment.
    await waitUntil(
      'finals to leave the process idle',
      () => !t.app.get(ContextService).speculationHeld,
    );
    const words = sentence.split(' ');
    for (let n = 1; n <= words.length; n++) {
      await interim(callId, words.slice(0, n).join(' '));
    }
    const call = CallTurns.identity(
      { call_id: callId, contact_uid: CONTACT, location_uid: 'loc_main' },
      undefined,
      callerTracker({ ip: '127.0.0.1' }),
    ) as CallIdentity;
    await untilSpeculated(t.app, call, sentence, () => interim(callId, sentence));
  };

  beforeAll(async () => {
    // A 3 s deadline, so a loaded box's clock cannot cut a final short (its call-memory check
    // missed: searched afresh; the fresh build it is compared with partial). The deadline
    // itself is tested in the context suite.
    t = await bootTestApp({ CALLS_MAX_PER_CALLER: '12', CONTEXT_TIMEOUT_MS: '3000' });
    const contacts = t.app.get<LocalPodiumContacts>(PODIUM_CONTACTS);
    await contacts.upsert([
      {
        contact_uid: CONTACT,
        phone: '+1 555 0100',
        email: 'voice@example.com',
        opt_out_sms: false,
        opt_out_email: false,
        location_uid: 'loc_main',
        last_seen_at: '2026-11-30T10:00:00.000Z',
      },
    ]);
    const ingest = await postJson(`${t.url}/ingest/conversations`, [
      msg('c_table', 1, 'The dining table leg arrived scratched, I want a replacement leg.'),
      msg('c_refund', 2, 'I was promised a refund for the broken lamp, write me at jo@example.com'),
      msg('c_sofa', 3, 'Please deliver the blue sofa to the back porch on Friday.'),
    ]);
    expect(ingest.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('POST /calls answers with the live contact and the newest messages, redacted', async () => {
    const res = await postJson<{
      contact: { live_fields_available: boolean; phone?: string };
      recent_messages: Array<{ content: string; occurred_at: string }>;
      meta: { partial: boolean };
    }>(`${t.url}/calls`, { call_id: 'call_open', contact_uid: CONTACT, max_messages: 2 });
    expect(res.status).toBe(200);
    expect(res.body.contact).toMatchObject({ live_fields_available: true, phone: '+1 555 0100' });
    expect(res.body.recent_messages.map((m) => m.content)).toEqual([
      'Please deliver the blue sofa to the back porch on Friday.',
      'I was promised a refund for the broken lamp, write me at [REDACTED:EMAIL]',
    ]);
    expect(res.body.meta.partial).toBe(false);
  });

  it('masks a phone number the customer split over two messages, in both halves', async () => {
    const split = (day: number, text: string) => ({
      ...msg('c_split', day, text),
      contact_uid: 'ctc_split',
    });
    const ingest = await postJson(`${t.url}/ingest/conversations`, [
      split(4, 'you can call me back on 415 555'),
      split(5, '2671 after six'),
    ]);
    expect(ingest.status).toBe(200);
    const res = await postJson<{ recent_messages: Array<{ content: string }> }>(`${t.url}/calls`, {
      call_id: 'call_split',
      contact_uid: 'ctc_split',
      max_messages: 2,
    });
    expect(res.status).toBe(200);
    const contents = res.body.recent_messages.map((m) => m.content);
    expect(contents).toHaveLength(2);
    expect(contents.join(' ')).not.toMatch(/415|555|2671/);
    expect(contents[0]).toMatch(/after six$/);
    // Frees the caller's call slot: the next test counts them.
    const ended = await postJson(`${t.url}/calls/end`, {
      call_id: 'call_split',
      contact_uid: 'ctc_split',
    });
    expect(ended.status).toBe(200);
  });

  it('bounds what a caller controls: call_id format and length, live calls per caller', async () => {
    for (const call_id of ['x'.repeat(129), 'call id with spaces', '', 42]) {
      const res = await postJson(`${t.url}/calls`, { call_id, contact_uid: CONTACT });
      expect(res.status).toBe(400);
    }
    for (const extra of [{ max_messages: 21 }, { max_messages: 0 }, { timeout_ms: 10 }]) {
      const res = await postJson(`${t.url}/calls`, {
        call_id: 'c',
        contact_uid: CONTACT,
        ...extra,
      });
      expect(res.status).toBe(400);
    }
    const hugeInterim = await context({
      call_id: 'c',
      transcript: 'w '.repeat(4001),
      is_final: false,
    });
    expect(hugeInterim.status).toBe(400);
    const notBoolean = await context({ call_id: 'c', transcript: 'hi', is_final: 'no' });
    expect(notBoolean.status).toBe(400);
    const interimWithoutCall = await context({ transcript: 'hello', is_final: false });
    expect(interimWithoutCall.status).toBe(400);
    expect(interimWithoutCall.body.error).toBe('call_id_required');
    // call_open is live already: eleven more reach CALLS_MAX_PER_CALLER (12), then 429.
    const opened: string[] = ['call_open'];
    for (let i = 0; i < 20; i++) {
      const res = await postJson<{ error?: string }>(`${t.url}/calls`, {
        call_id: `call_b${i}`,
        contact_uid: CONTACT,
      });
      if (res.status !== 200) {
        expect(res.status).toBe(429);
        expect(res.body.error).toBe('too_many_calls');
        break;
      }
      opened.push(`call_b${i}`);
    }
    expect(opened).toHaveLength(12);
    // An interim of a new call is refused the same way; ending a call frees its place.
    const interim = await postJson(`${t.url}/context`, {
      call_id: 'call_new',
      contact_uid: CONTACT,
      transcript: 'hi',
      is_final: false,
    });
    expect(interim.status).toBe(429);
    for (const call_id of opened) {
      const ended = await postJson<{ ended: boolean }>(`${t.url}/calls/end`, {
        call_id,
        contact_uid: CONTACT,
      });
      expect(ended.body.ended).toBe(true);
    }
  });

  it('serves a matching final from the interim search, with the same excerpts as a fresh one', async () => {
    const sentence = 'the leg of my dining table arrived scratched';
    await speak('call_spec', sentence);
    const speculative = await context({ call_id: 'call_spec', transcript: sentence });
    expect(speculative.status).toBe(200);
    expect(speculative.body.meta.speculative).toBe(true);
    expect(speculative.body.meta.retrieved_age_ms).toBeGreaterThan(0);
    // Live fields are looked up for the final itself.
    expect(speculative.body.contact).toMatchObject({ live_fields_available: true });

    const fresh = await context({ call_id: 'call_fresh', transcript: sentence });
    expect(fresh.body.meta.speculative).toBe(false);
    expect(fresh.body.meta.retrieved_age_ms).toBe(0);
    // Its evidence was assembled once its pool was in: the same as a fresh build of this turn.
    expect(speculative.body.historical_excerpts[0].content).toContain('dining table');
    expect(speculative.body.historical_excerpts).toEqual(fresh.body.historical_excerpts);
    const same = (b: ContextBundle) => ({
      contact: b.contact,
      token_count: b.token_count,
      query: b.meta.query,
      redactions: b.meta.redactions,
      dropped: b.meta.dropped_excerpts,
      partial: b.meta.partial,
    });
    expect(same(speculative.body)).toEqual(same(fresh.body));
    expect(speculative.body.meta.stages.select_ms).toBeUndefined(); // not assembled on its path
  });

  it('a redacted excerpt served from speculation is the one a fresh build redacts', async () => {
    const sentence = 'the refund for my broken lamp was promised by mail';
    await speak('call_spec_pii', sentence);
    const speculative = await context({ call_id: 'call_spec_pii', transcript: sentence });
    const fresh = await context({ call_id: 'call_fresh_pii', transcript: sentence });
    expect(speculative.body.meta.speculative).toBe(true);
    expect(speculative.body.historical_excerpts[0].content).toContain('[REDACTED:EMAIL]');
    expect(speculative.body.historical_excerpts).toEqual(fresh.body.historical_excerpts);
    expect(speculative.body.meta.redactions).toEqual(fresh.body.meta.redactions);
    expect(speculative.body.token_count).toBe(fresh.body.token_count);
  });

  it('searches afresh when the final says something else than the interims did', async () => {
    await speak('call_turn', 'when will my blue sofa be delivered');
    const final = await context({
      call_id: 'call_turn',
      transcript: 'actually I need the refund for the broken lamp',
    });
    expect(final.body.meta.speculative).toBe(false);
    expect(final.body.historical_excerpts[0].content).toContain('refund');
  });

  it('finds what the caller said earlier in the call on a later turn, redacted', async () => {
    const first = await context({
      call_id: 'call_mem',
      transcript: 'my new gate code is 4417 and my email is pat@example.com',
    });
    expect(first.body.call_memory).toEqual([]);
    await context({ call_id: 'call_mem', transcript: 'also the weather is nice today' });
    const later = await context({
      call_id: 'call_mem',
      transcript: 'what gate code did I give you',
    });
    expect(later.body.call_memory?.map((m) => m.content)).toEqual([
      'my new gate code is 4417 and my email is [REDACTED:EMAIL]',
    ]);
    // Another call of the same contact does not see it.
    const other = await context({
      call_id: 'call_other',
      transcript: 'what gate code did I give you',
    });
    expect(other.body.call_memory).toEqual([]);
  });

  it('joins the contact’s history when the call ends', async () => {
    await context({ call_id: 'call_join', transcript: 'the hallway lamp flickers every evening' });
    const ended = await postJson<{ ended: boolean; joined_turns: number }>(`${t.url}/calls/end`, {
      call_id: 'call_join',
      contact_uid: CONTACT,
      location_uid: 'loc_main',
    });
    expect(ended.body).toEqual({ ended: true, joined_turns: 1 });
    const search = await postJson<{ hits: Array<{ content: string; channel: string }> }>(
      `${t.url}/search`,
      { query: 'hallway lamp flickers', contact_uid: CONTACT, top_k: 1 },
    );
    expect(search.body.hits[0]).toMatchObject({ channel: 'voice' });
    expect(search.body.hits[0].content).toContain('hallway lamp flickers');
  });

  it('a forget during the call removes what was said before it, in the call and at its end', async () => {
    await context({ call_id: 'call_forget', transcript: 'my locker combination is 9182' });
    // A speculative search over the history the forget is about to remove.
    const sofa = 'please deliver the blue sofa to the porch';
    await speak('call_forget', sofa);
    const forget = await postJson(`${t.url}/contacts/forget`, { contact_uid: CONTACT });
    expect(forget.status).toBe(200);
    const afterForget = await context({ call_id: 'call_forget', transcript: sofa });
    expect(afterForget.body.meta.speculative).toBe(false);
    // The coalescer's tail held the words said before the forget: not echoed, not kept.
    expect(afterForget.body.meta.query).toBe(sofa);
    expect(JSON.stringify(afterForget.body.historical_excerpts)).not.toContain('blue sofa');
    const later = await context({
      call_id: 'call_forget',
      transcript: 'what locker combination did I say',
    });
    expect(later.body.call_memory).toEqual([]);
    expect(later.body.meta.query).not.toMatch(/9182|blue sofa/);
    const ended = await postJson(`${t.url}/calls/end`, {
      call_id: 'call_forget',
      contact_uid: CONTACT,
      location_uid: 'loc_main',
    });
    expect(ended.status).toBe(200);
    const search = await postJson<{ hits: Array<{ content: string }> }>(`${t.url}/search`, {
      query: 'locker combination',
      contact_uid: CONTACT,
      top_k: 5,
    });
    // The turn after the forget joins history; the one before it never does.
    expect(search.body.hits.map((r) => r.content).join(' ')).not.toContain('9182');
  });
});
