import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type EmbeddingProvider } from '@app/embedding';

/** Gitignored: embeddings are derived data, cheap to rebuild and model-specific. */
export const BENCH_CACHE_DIR = join(__dirname, '..', '.cache');

/** Texts handed to the provider per call, so progress can be reported on long runs. */
const SLICE = 256;

/**
 * Embeds `texts` with `provider`, or reads them back from `bench/.cache` when the same model
 * already embedded exactly these texts (the file name hashes the model and every text, so a
 * changed corpus or chunker never serves stale vectors). Stored as raw float32.
 */
export async function embedCached(
  provider: EmbeddingProvider,
  model: string,
  name: string,
  texts: string[],
  log: (message: string) => void = () => undefined,
): Promise<Float32Array[]> {
  const hash = createHash('sha256').update(model);
  for (const text of texts) {
    hash.update('\u0000').update(text);
  }
  const file = join(BENCH_CACHE_DIR, `${name}-${hash.digest('hex').slice(0, 16)}.f32`);
  if (existsSync(file)) {
    const raw = readFileSync(file);
    const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    const dimension = all.length / Math.max(1, texts.length);
    log(`${name}: ${texts.length} vectors from cache`);
    return texts.map((_, i) => all.subarray(i * dimension, (i + 1) * dimension));
  }
  const vectors: Float32Array[] = [];
  const started = performance.now();
  for (let offset = 0; offset < texts.length; offset += SLICE) {
    const batch = await provider.embedBatch(texts.slice(offset, offset + SLICE));
    vectors.push(...batch.map((v) => Float32Array.from(v)));
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    log(`${name}: ${vectors.length}/${texts.length} embedded (${seconds} s)`);
  }
  mkdirSync(BENCH_CACHE_DIR, { recursive: true });
  const out = new Float32Array(vectors.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const v of vectors) {
    out.set(v, at);
    at += v.length;
  }
  writeFileSync(file, Buffer.from(out.buffer));
  return vectors;
}

/** Scales to unit length, so a dot product is the cosine the vector stores report. */
export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) {
    norm += x * x;
  }
  norm = Math.sqrt(norm) || 1;
  return vector.map((x) => x / norm);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    sum += a[i] * b[i];
  }
  return sum;
}
