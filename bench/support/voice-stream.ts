import { type ContextBundle, type HistoricalExcerpt } from '../../src/context/context.dto';

/** One replayed turn as bench:voice counts it. */
export interface TurnResult {
  ms: number;
  /** `meta.elapsed_ms`: the server's part, from the request's (or frame's) arrival. */
  serverMs: number;
  speculative: boolean;
  late: boolean;
  partial: boolean;
  hit: boolean;
  /** Stream mode: the final was answered `confirmed` (the client already held the excerpts). */
  confirmed?: boolean;
  /** `meta.stages`: where the server's part went. */
  stages?: Record<string, number>;
}

interface StreamTurn {
  q: string;
  contact: string;
}

type Message = { type: string; bundle_id?: number; seq?: number } & Record<string, unknown>;

/**
 * One call over `GET /calls/{call_id}/stream`: the same interims and gaps as the HTTP modes,
 * each sent as a frame without waiting; the final's end-of-turn → bundle is from sending it to
 * holding the whole bundle (a `confirmed` answer plus the excerpts pushed before it).
 */
export async function replayStreamCall(
  url: string,
  callId: string,
  turns: StreamTurn[],
  gap: () => Promise<void>,
  hit: (turn: number, excerpts: HistoricalExcerpt[]) => boolean,
): Promise<TurnResult[]> {
  const query = `contact_uid=${encodeURIComponent(turns[0].contact)}`;
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/calls/${callId}/stream?${query}`);
  const pushed = new Map<number, HistoricalExcerpt[]>();
  let answered: ((message: Message) => void) | undefined;
  const closed = new Promise<void>((resolve) => socket.addEventListener('close', () => resolve()));
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Message;
    if (message.type === 'speculative') {
      pushed.set(message.bundle_id as number, message.historical_excerpts as HistoricalExcerpt[]);
    } else if (message.type !== 'ready') {
      answered?.(message);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('stream refused')), { once: true });
  });
  const out: TurnResult[] = [];
  for (const [seq, turn] of turns.entries()) {
    const words = turn.q.split(/\s+/);
    for (let n = 1; n <= words.length; n++) {
      await gap();
      socket.send(JSON.stringify({ type: 'interim', transcript: words.slice(0, n).join(' ') }));
    }
    await gap();
    const answer = new Promise<Message>((resolve) => (answered = resolve));
    const t0 = performance.now();
    socket.send(JSON.stringify({ type: 'final', transcript: turn.q, seq }));
    const message = await answer;
    const ms = performance.now() - t0;
    if (message.type === 'error') {
      throw new Error(`stream error ${JSON.stringify(message.problem)}`);
    }
    const bundle =
      message.type === 'confirmed'
        ? { meta: message.meta as ContextBundle['meta'], excerpts: pushed.get(message.bundle_id!) }
        : {
            meta: (message.bundle as ContextBundle).meta,
            excerpts: (message.bundle as ContextBundle).historical_excerpts,
          };
    pushed.clear();
    out.push({
      ms,
      serverMs: bundle.meta.elapsed_ms,
      speculative: bundle.meta.speculative,
      late: ms > bundle.meta.timeout_ms,
      partial: bundle.meta.partial,
      hit: hit(seq, bundle.excerpts ?? []),
      confirmed: message.type === 'confirmed',
      stages: bundle.meta.stages,
    });
  }
  socket.send(JSON.stringify({ type: 'end' }));
  await closed;
  return out;
}
