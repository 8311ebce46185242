import { contentHash, uuidFromHash } from '@app/common';

import { type VectorRecord } from '../../libs/vector/src/interfaces/vector-store.interface';

/**
 * Window `n` of a postings spec: `words` (from the `n % 3`-th on) plus a term of its own, on
 * five contacts of one location, ids distinct per `prefix`; `content` replaces the text.
 */
export const postingRow = (
  prefix: string,
  words: readonly string[],
  n: number,
  content?: string,
): VectorRecord<'conversations'> => ({
  id: uuidFromHash(contentHash(`${prefix}-${n}`)),
  content: content ?? `${words.slice(n % 3).join(' ')} note${n}`,
  embedding: Array.from({ length: 8 }, (_, i) => (i === n % 8 ? 1 : 0.1)),
  payload: {
    contact_uid: `ctc_${n % 5}`,
    location_uid: 'loc_a',
    conversation_uid: `conv_${n}`,
    channel: 'sms',
    occurred_at: new Date(Date.UTC(2026, 0, 1 + (n % 28))).toISOString(),
  },
});
