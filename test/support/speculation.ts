import { type INestApplication } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { type CallIdentity, CallSessions } from '../../src/context/speculative/call-sessions';
import { QueryTerms } from '../../src/context/speculative/query-match';
import { Speculator } from '../../src/context/speculative/speculator';
import { waitFor } from './wait';

const PENDING = Symbol('pending');

/** `promise`'s value once settled, else PENDING (a settled one wins before the next macrotask). */
function settledValue<T>(promise: Promise<T>): Promise<T | typeof PENDING> {
  return Promise.race([
    promise,
    new Promise<typeof PENDING>((resolve) => setImmediate(resolve, PENDING)),
  ]);
}

/**
 * Waits until `call` holds a speculative search that serves a final saying `sentence` (the
 * speculator's own match rule) and that search has its pool: the state a final needs to be
 * served from speculation, observed rather than assumed from a stopwatch.
 *
 * Under load each interim can outlive the 40 ms debounce, so shorter hypotheses are searched
 * too and the one running sheds the later ones (one search at a time): the whole sentence may
 * never be searched. `resend` then repeats it, as a speech engine repeats a stable hypothesis,
 * whenever no search runs and none covering it is held; the gap between repeats doubles, so a
 * late debounce timer is not reset for ever.
 */
export async function untilSpeculated(
  app: INestApplication,
  call: CallIdentity,
  sentence: string,
  resend: () => Promise<void>,
): Promise<void> {
  const sessions = app.get(CallSessions);
  const speculator = app.get(Speculator);
  const threshold = app.get<AppConfig>(APP_CONFIG).calls.matchThreshold;
  const wanted = new QueryTerms(sentence);
  let gapMs = 100;
  let sentAt = Date.now();
  await waitFor('an interim search serving the sentence, with its pool', async () => {
    const slot = sessions.find(call)?.speculation;
    if (slot && !slot.abort.signal.aborted && wanted.servedBy(slot.terms, threshold)) {
      const result = await settledValue(slot.result);
      if (result === undefined) {
        // Not aborted yet no pool: it missed or was shed, and covers the sentence, so no
        // repeat would search again. Say so rather than time out.
        throw new Error(
          `the interim search ended without a pool (${JSON.stringify(speculator.stats)})`,
        );
      }
      return result === PENDING ? undefined : true;
    }
    if (speculator.active === 0 && Date.now() - sentAt >= gapMs) {
      await resend();
      sentAt = Date.now();
      gapMs = Math.min(gapMs * 2, 2_000);
    }
    return undefined;
  });
}
