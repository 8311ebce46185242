import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { loadSgdConversations } from './sgd';
import { sgdContacts, sgdQuestions, type Traffic, trafficOf } from './sgd-traffic';

/**
 * bench:context's SGD store for two checkouts at once: a copy of each one's own
 * bench/.cache/sgd-g8-<n> (built by its `npm run bench:context`; a copy, as PGlite holds its
 * directory) and the same questions as traffic. BENCH_CONVERSATIONS (240) picks the store.
 */
export function sgdStore<S extends string>(
  roots: Record<S, string>,
  dir: string,
): { dataDirs: Record<S, string>; traffic: Traffic } {
  const conversations = loadSgdConversations(Number(process.env.BENCH_CONVERSATIONS ?? 240));
  const name = `sgd-g8-${conversations.length}`;
  const dataDirs = {} as Record<S, string>;
  for (const [side, root] of Object.entries(roots) as [S, string][]) {
    const source = join(root, 'bench', '.cache', name);
    if (!existsSync(source)) {
      throw new Error(
        `${source}: run BENCH_CONVERSATIONS=${conversations.length} npm run bench:context there first`,
      );
    }
    dataDirs[side] = join(dir, `${side}-${name}`);
    cpSync(source, dataDirs[side], { recursive: true });
  }
  const contactOf = sgdContacts(conversations);
  const questions = sgdQuestions(conversations, Number(process.env.BENCH_QUESTIONS ?? 300));
  const traffic = trafficOf(
    questions.map((q) => ({ q: q.question, contact: contactOf.get(q.conversation_id) as string })),
  );
  return { dataDirs, traffic };
}
