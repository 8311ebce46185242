import { type ContextBundle } from '../src/context/context.dto';
import { ContextService } from '../src/context/context.service';
import { Speculator } from '../src/context/speculative/speculator';
import { HybridSearchService } from '../src/retrieval/hybrid-search.service';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { waitUntil } from './support/wait';

const CONTACT = 'ctc_priority';

/**
 * The embedded database's session as retrieval sees it: one search at a time, in arrival
 * order, and a search whose caller aborted while it waited leaves the queue unrun (as the
 * PGlite client drops a cancelled statement). Each search is recorded by its embed lane.
 */
class SearchQueue {
  readonly ran: Array<'context' | 'query'> = [];
  readonly queued: Array<'context' | 'query'> = [];
  private tail: Promise<void> = Promise.resolve();

  /** Occupies the session until the returned release is called. */
  hold(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.tail = this.tail.then(() => held);
    return release;
  }

  run<T>(lane: 'context' | 'query', signal: AbortSignal | undefined, work: () => Promise<T>) {
    this.queued.push(lane);
    const turn = this.tail.then(() => {
      if (signal?.aborted) {
        throw new Error('aborted while queued');
      }
      this.ran.push(lane);
      return work();
    });
    this.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }
}

describe('calls: a final is never queued behind interim speculation (e2e)', () => {
  let t: TestApp;
  let speculator: Speculator;
  const queue = new SearchQueue();
  const context = (body: Record<string, unknown>) =>
    postJson<ContextBundle>(`${t.url}/context`, { contact_uid: CONTACT, ...body });

  beforeAll(async () => {
    t = await bootTestApp();
    speculator = t.app.get(Speculator);
    const ingest = await postJson(`${t.url}/ingest/conversations`, [
      {
        conversation_uid: 'c_sofa',
        contact_uid: CONTACT,
        channel: 'sms',
        occurred_at: '2026-01-03T12:00:00.000Z',
        sender: 'customer',
        text: 'Please deliver the blue sofa to the back porch on Friday.',
      },
    ]);
    expect(ingest.status).toBe(200);
    const hybrid = t.app.get(HybridSearchService);
    const pool = hybrid.pool.bind(hybrid);
    hybrid.pool = (query, filter, poolK, signal, lane = 'context') =>
      queue.run(lane, signal, () => pool(query, filter, poolK, signal, lane));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('a final arriving while another call’s speculation is queued is searched first', async () => {
    const release = queue.hold(); // a statement already running
    const sentence = 'when will the blue sofa be delivered';
    const words = sentence.split(' ');
    for (let n = 1; n <= words.length; n++) {
      const interim = await context({
        call_id: 'call_speaking',
        transcript: words.slice(0, n).join(' '),
        is_final: false,
      });
      expect(interim.status).toBe(202);
    }
    await waitUntil('the speculative search to queue', () => queue.queued.includes('query'));

    const final = context({ call_id: 'call_other', transcript: 'is my blue sofa on its way' });
    await waitUntil('the final’s search to queue', () => queue.queued.includes('context'));
    release();

    const answered = await final;
    expect(answered.status).toBe(200);
    expect(answered.body.historical_excerpts[0].content).toContain('sofa');
    // Old behaviour: ['query', 'context'], the final searched after the interim's search.
    expect(queue.ran[0]).toBe('context');
    expect(queue.ran).not.toContain('query');
    expect(speculator.stats.preempted).toBe(1);
    await waitUntil('the aborted speculation to settle', () => speculator.active === 0);

    // The preempted call speculates again on a stable interim once finals have left the
    // process idle for the quiet time (one sooner is shed), and is served from that search.
    await waitUntil(
      'finals to leave the process idle',
      () => !t.app.get(ContextService).speculationHeld,
    );
    await context({ call_id: 'call_speaking', transcript: sentence, is_final: false });
    await waitUntil('a new speculative search', () => queue.ran.includes('query'));
    await waitUntil('it to finish', () => speculator.active === 0);
    expect(queue.ran).toContain('query');
    const served = await context({ call_id: 'call_speaking', transcript: sentence });
    expect(served.body.meta.speculative).toBe(true);
  });
});
