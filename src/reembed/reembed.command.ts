import { ConfigurationError } from '@app/common';
import { Database } from '@app/database';
import { createEmbeddingProvider, EMBEDDING_PROVIDERS } from '@app/embedding';
import { type Command, InvalidArgumentError } from 'commander';

import { withAppContext } from '../cli/cli-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  reembed,
  REEMBED_MAX_BATCH,
  ReembedError,
  type ReembedProgress,
  type ReembedReport,
} from './reembed-runner';

/** The bounds migration 18's record enforces, checked before anything is opened. */
const MAX_MODEL_CHARS = 200;
const MAX_DIMENSION = 4000;
const DEFAULT_BATCH = 256;
/** Half the time: the serving replicas keep most of the database while it backfills. */
const DEFAULT_DUTY = 50;

export interface ReembedCommandOptions {
  model: string;
  dimension?: number;
  provider?: string;
  batch: number;
  duty: number;
  progress: boolean;
}

/**
 * `context-bridge reembed --model ID`: moves the store to another embedding model while the
 * service serves (see {@link reembed}). The target is served like the configured embedder
 * (same provider, key and URL) unless `--provider` says otherwise. Run it with the
 * configuration the store was written with; once it is done, set EMBEDDING_MODEL (and
 * EMBEDDING_DIMENSION) to the target for the next restarts: running replicas follow the
 * store's record without one.
 */
export function reembedCommand(options: ReembedCommandOptions): Promise<ReembedReport> {
  return withAppContext(async (ctx) => {
    const config = ctx.get<AppConfig>(APP_CONFIG);
    assertReembeddable(config.storage.vector.provider);
    const provider = EMBEDDING_PROVIDERS.find(
      (p) => p === (options.provider ?? config.embedding.provider),
    );
    if (!provider) {
      throw new InvalidArgumentError(`--provider must be one of ${EMBEDDING_PROVIDERS.join(', ')}`);
    }
    const embedder = createEmbeddingProvider({
      ...config.embedding,
      provider,
      model: options.model,
      dimension: options.dimension,
    });
    try {
      const info = await embedder.init();
      if (info.model !== options.model) {
        throw new ConfigurationError(
          `The ${provider} embedder serves ${info.model}, not ${options.model}.`,
        );
      }
      return await reembed({
        database: ctx.get(Database),
        target: { provider, model: info.model, dimension: info.dimension },
        embed: (texts) => embedder.embedBatch(texts, undefined, 'bulk'),
        batch: options.batch,
        duty: options.duty,
        onProgress: options.progress ? progressBar() : undefined,
      });
    } finally {
      await embedder.close();
    }
  });
}

/** Only a pgvector store is moved; Qdrant keeps its vectors in collections of its own. */
export function assertReembeddable(vectorStore: AppConfig['storage']['vector']['provider']): void {
  if (vectorStore !== 'pgvector') {
    throw new ReembedError(
      'reembed_unsupported',
      `reembed moves a pgvector store; VECTOR_STORE=${vectorStore} keeps its vectors ` +
        'elsewhere. Build a new collection with the new model and re-ingest ' +
        '(docs/operations.md, "Changing the embedding model").',
    );
  }
}

/** A one-line progress bar on stderr (stdout keeps the JSON report). */
function progressBar(): (p: ReembedProgress) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (now - last < 200 && p.done < p.total) {
      return;
    }
    last = now;
    const share = p.total === 0 ? 1 : p.done / p.total;
    const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.');
    process.stderr.write(
      `\r${p.phase.padEnd(8)} ${p.table.padEnd(20)} [${bar}] ${p.done}/${p.total}`,
    );
    if (p.done >= p.total) {
      process.stderr.write('\n');
    }
  };
}

const bounded = (name: string, max: number) => (value: string) => {
  const n = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new InvalidArgumentError(`${name} must be an integer from 1 to ${max}`);
  }
  return n;
};

const modelId = (value: string) => {
  // The id reaches the embedder's API and the store's record: printable, bounded.
  if (value.length === 0 || value.length > MAX_MODEL_CHARS || !/^[\x21-\x7e]+$/.test(value)) {
    throw new InvalidArgumentError(`must be 1 to ${MAX_MODEL_CHARS} printable characters`);
  }
  return value;
};

export function registerReembedCommand(
  program: Command,
  run: (options: ReembedCommandOptions) => Promise<ReembedReport> = reembedCommand,
): void {
  program
    .command('reembed')
    .description(
      'move the store to another embedding model while the service serves: a shadow column ' +
        'backfilled in batches (resumes after a kill), its HNSW index, then one atomic ' +
        'switch; running replicas follow within a second. pgvector only',
    )
    .requiredOption('--model <id>', 'the target model id (e.g. text-embedding-3-large)', modelId)
    .option(
      '--dimension <n>',
      `the target dimension (needed when the model's is not known; 1 to ${MAX_DIMENSION})`,
      bounded('--dimension', MAX_DIMENSION),
    )
    .option(
      '--provider <name>',
      `target embedder: ${EMBEDDING_PROVIDERS.join(', ')} (default: EMBEDDING_PROVIDER)`,
    )
    .option(
      '--batch <n>',
      `rows embedded per batch (1 to ${REEMBED_MAX_BATCH})`,
      bounded('--batch', REEMBED_MAX_BATCH),
      DEFAULT_BATCH,
    )
    .option(
      '--duty <percent>',
      'share of the time the backfill works (1 to 100); it rests between batches for the rest',
      bounded('--duty', 100),
      DEFAULT_DUTY,
    )
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o: ReembedCommandOptions) => {
      try {
        process.stdout.write(`${JSON.stringify(await run(o), null, 2)}\n`);
      } catch (error) {
        if (!(error instanceof ReembedError)) {
          throw error;
        }
        // A refusal with its stable code, exit 2: scripts tell it from a crash (exit 1).
        process.stderr.write(`error: ${error.code}: ${error.message}\n`);
        process.exitCode = 2;
      }
    });
}
