import { createHash } from 'node:crypto';

import { terms } from '@app/common';

import { type IngestRecord } from './ingest-record';
import { prng } from './prng';
import { loadSgdConversations } from './sgd';

/**
 * A synthetic organisation's history for the scale bench, built from SGD turns:
 *  - contacts with a Zipf-like spread (rank r owns a share ∝ 1/r^s), so one contact holds
 *    ~4% of all conversations (≥ 40,000 windows at 1M) while most hold a handful;
 *  - conversations of real SGD dialogue, each turn swapped with the same turn of another
 *    dialogue of its service at random, so windows are distinct texts (no duplicate vectors)
 *    while reading like the dialogues they come from;
 *  - deterministic: conversation i is the same in every run, so steps grow one history.
 */
export type ScaleMessage = IngestRecord;

const CHANNELS = ['sms', 'call', 'webchat'] as const;
const SWAP_SHARE = 0.35;

export class ScaleCorpus {
  private readonly dialogues = loadSgdConversations();
  private readonly byService = new Map<string, number[]>();
  /** Cumulative contact shares, for sampling a contact by rank. */
  private readonly cumulative: Float64Array;

  constructor(
    readonly contacts = 5000,
    readonly zipfExponent = 0.8,
  ) {
    this.dialogues.forEach((d, i) => {
      const service = (d as unknown as { services?: string[] }).services?.[0] ?? 'any';
      const list = this.byService.get(service) ?? [];
      list.push(i);
      this.byService.set(service, list);
    });
    const weights = Array.from({ length: contacts }, (_, r) => 1 / (r + 1) ** zipfExponent);
    const total = weights.reduce((a, b) => a + b, 0);
    this.cumulative = new Float64Array(contacts);
    let sum = 0;
    weights.forEach((w, r) => {
      sum += w / total;
      this.cumulative[r] = sum;
    });
  }

  /** The contact id of a rank (0 = the heaviest). */
  contactUid(rank: number): string {
    return `scale-c${String(rank).padStart(5, '0')}`;
  }

  /** The share of conversations the contact of `rank` owns. */
  share(rank: number): number {
    return this.cumulative[rank] - (rank > 0 ? this.cumulative[rank - 1] : 0);
  }

  /** The messages of conversation `index`. */
  conversation(index: number): ScaleMessage[] {
    const random = prng(index * 2654435761);
    const rank = this.rankAt(random());
    const base = this.dialogues[Math.floor(random() * this.dialogues.length)];
    const service = (base as unknown as { services?: string[] }).services?.[0] ?? 'any';
    const peers = this.byService.get(service) ?? [0];
    // Spread over ~4 years, newest last, a few minutes apart per conversation.
    const start = Date.UTC(2022, 0, 1) + index * 127_000;
    return base.turns.flatMap((turn, t) => {
      let text = turn.text;
      if (random() < SWAP_SHARE) {
        const peer = this.dialogues[peers[Math.floor(random() * peers.length)]];
        text = peer.turns[t]?.text ?? text;
      }
      if (!text.trim()) {
        return [];
      }
      return {
        conversation_uid: `scale-conv-${index}`,
        contact_uid: this.contactUid(rank),
        location_uid: `loc-${rank % 3}`,
        channel: CHANNELS[index % CHANNELS.length],
        occurred_at: new Date(start + t * 30_000).toISOString(),
        sender: turn.role,
        text,
      };
    });
  }

  /** Messages of conversations [from, to). */
  conversations(from: number, to: number): ScaleMessage[] {
    const out: ScaleMessage[] = [];
    for (let i = from; i < to; i++) {
      out.push(...this.conversation(i));
    }
    return out;
  }

  private rankAt(u: number): number {
    let lo = 0;
    let hi = this.contacts - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}

const termVectors = new Map<string, Float32Array>();

function termVector(term: string, dimension: number): Float32Array {
  const key = `${dimension}:${term}`;
  let vector = termVectors.get(key);
  if (!vector) {
    vector = new Float32Array(dimension);
    let block = createHash('sha256').update(term).digest();
    for (let i = 0; i < dimension;) {
      for (let j = 0; j + 1 < block.length && i < dimension; j += 2, i++) {
        vector[i] = block.readInt16LE(j) / 32768;
      }
      block = createHash('sha256').update(block).digest();
    }
    termVectors.set(key, vector);
  }
  return vector;
}

/**
 * A fast deterministic embedder with the structure of real embeddings: the normalised sum of
 * random term vectors (a random projection of the bag of words), so texts that share words
 * are close and HNSW sees clustered, not uniform, data. It measures the store, not meaning.
 */
export function bagOfWordsEmbedding(text: string, dimension: number): number[] {
  const sum = new Float32Array(dimension);
  for (const term of terms(text)) {
    const v = termVector(term, dimension);
    for (let i = 0; i < dimension; i++) {
      sum[i] += v[i];
    }
  }
  // An all-stop-word text still needs a unit vector: fall back to the text's own hash.
  const norm = Math.hypot(...sum) || 0;
  if (norm === 0) {
    const fallback = termVector(`\u0000${text}`, dimension);
    const fallbackNorm = Math.hypot(...fallback);
    return Array.from(fallback, (x) => x / fallbackNorm);
  }
  return Array.from(sum, (x) => x / norm);
}
