import { randomBytes } from 'node:crypto';

import { EmbeddingService } from '@app/embedding';
import { RERANKER } from '@app/rerank';
import { VECTOR_STORE } from '@app/vector';
import { SingleBar } from 'cli-progress';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type BeirFiles, loadBeir } from '../eval/beir';
import { type EvalReport, formatTable, runEval } from '../eval/run-eval';
import { withAppContext } from './cli-context';

export interface EvalCommandOptions extends BeirFiles {
  k: number;
  poolK: number;
}

/**
 * `context-bridge eval <dir>`: a BEIR set ingested into a throwaway store of the configured
 * provider and embedder, then scored per method. pgvector runs on an in-memory PGlite (the
 * same store code as on a server, and never the service's data); Qdrant gets collections of
 * its own on QDRANT_URL, deleted afterwards. The table goes to stderr, the JSON to stdout.
 */
export async function evalCommand(dir: string, options: EvalCommandOptions): Promise<EvalReport> {
  const set = loadBeir(dir, options);
  const suffix = randomBytes(4).toString('hex');
  // Throwaway collection names; pgvector ignores them.
  const collections = {
    QDRANT_COLLECTION_CONVERSATIONS: `eval_${suffix}_conversations`,
    QDRANT_COLLECTION_SOURCE_CHUNKS: `eval_${suffix}_source_chunks`,
    QDRANT_COLLECTION_TOPIC_SUMMARIES: `eval_${suffix}_topic_summaries`,
  };
  const overrides = {
    // The CRM tables and the pgvector store both live here: a throwaway in memory.
    DATA_DIR: 'memory://',
    DATABASE_URL: '',
    ...collections,
  };
  /** Where to drop the collections afterwards, when the store is Qdrant. */
  let qdrant: { url: string; apiKey?: string } | undefined;
  const bar = new SingleBar({
    stream: process.stderr,
    format: '{phase} [{bar}] {value}/{total}',
  });
  try {
    return await withAppContext(async (ctx) => {
      const { vector } = ctx.get<AppConfig>(APP_CONFIG).storage;
      if (vector.provider === 'qdrant' && vector.qdrantUrl) {
        qdrant = { url: vector.qdrantUrl, apiKey: vector.qdrantApiKey };
      }
      const embedding = ctx.get(EmbeddingService);
      let phase = '';
      const report = await runEval(
        set,
        {
          store: ctx.get(VECTOR_STORE),
          reranker: ctx.get(RERANKER),
          embedDocuments: (texts) => embedding.embedDocuments(texts),
          embedQuery: (text) => embedding.embedQuery(text),
        },
        {
          k: options.k,
          poolK: options.poolK,
          onProgress: (name, done, total) => {
            if (name !== phase) {
              bar.stop();
              phase = name;
              bar.start(total, 0, { phase: name === 'ingest' ? 'ingest chunks' : 'queries' });
            }
            bar.update(done, { phase: name === 'ingest' ? 'ingest chunks' : 'queries' });
          },
        },
      );
      bar.stop();
      const config = ctx.get<AppConfig>(APP_CONFIG);
      process.stderr.write(
        `\n${config.storage.vector.provider} · ${embedding.info.model} · ${report.queries} queries · ` +
          `${report.documents} documents (${report.chunks} chunks)\n${formatTable(report)}\n`,
      );
      return report;
    }, overrides);
  } finally {
    bar.stop();
    if (qdrant) {
      await dropCollections(qdrant, Object.values(collections));
    }
  }
}

/** Best effort: a collection left behind is named `eval_*` and holds only the eval set. */
async function dropCollections(
  qdrant: { url: string; apiKey?: string },
  names: string[],
): Promise<void> {
  const base = qdrant.url.replace(/\/$/, '');
  const headers: Record<string, string> = qdrant.apiKey ? { 'api-key': qdrant.apiKey } : {};
  await Promise.all(
    names.map((name) =>
      fetch(`${base}/collections/${name}`, { method: 'DELETE', headers }).catch(() => undefined),
    ),
  );
}
