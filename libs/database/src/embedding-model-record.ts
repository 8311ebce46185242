import { ConfigurationError } from '@app/common';
import { type Logger } from '@nestjs/common';

import { type SqlExecutor } from './interfaces/sql-client.interface';

/** Which embedding model wrote (or is to write) a store's vectors (migration 18's row). */
export interface StoreModel {
  provider: string;
  model: string;
  dimension: number;
}

/** The bounds migration 18's table enforces, checked first so the error says which. */
const MAX_PROVIDER_CHARS = 40;
const MAX_MODEL_CHARS = 200;

/**
 * The vector size a store was built with: its model record, else (a store from before
 * migration 18) its conversations' column type, else `null` (an empty database).
 */
export async function storedDimension(db: Pick<SqlExecutor, 'query'>): Promise<number | null> {
  const [row] = await db.query<{ recorded: boolean; type: string | null }>(
    `SELECT to_regclass('embedding_model') IS NOT NULL AS recorded,
            (SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
             WHERE a.attrelid = to_regclass('podium_conversations')
               AND a.attname = 'embedding') AS type`,
  );
  const stored = row?.recorded ? await readStoreModel(db) : null;
  return stored?.dimension ?? vectorColumnDimension(row?.type ?? '');
}

/** `N` of a `vector(N)` or `halfvec(N)` column type; `null` for anything else. */
export function vectorColumnDimension(type: string): number | null {
  const match = /^(?:vector|halfvec)\((\d+)\)$/.exec(type);
  return match ? Number(match[1]) : null;
}

/** The model the store records, or `null` (a store from before migration 18, or empty). */
export async function readStoreModel(db: Pick<SqlExecutor, 'query'>): Promise<StoreModel | null> {
  const [row] = await db.query<StoreModel>(
    `SELECT provider, model, dimension FROM embedding_model WHERE singleton`,
  );
  return row ?? null;
}

/**
 * Records `configured` as the store's model when none is recorded yet (a new store, or the
 * first open after the upgrade: logged), else refuses a different model id or dimension
 * with the command that moves the store. Replicas racing on a new store: one insert wins,
 * and the others compare with it.
 */
export async function reconcileStoreModel(
  db: SqlExecutor,
  configured: StoreModel,
  logger: Logger,
): Promise<StoreModel> {
  if (
    configured.provider.length > MAX_PROVIDER_CHARS ||
    configured.model.length > MAX_MODEL_CHARS
  ) {
    throw new ConfigurationError(
      `The embedding model id is longer than ${MAX_MODEL_CHARS} characters (provider ` +
        `${MAX_PROVIDER_CHARS}): set EMBEDDING_MODEL to the model's real name.`,
    );
  }
  const inserted = await db.execute(
    `INSERT INTO embedding_model (provider, model, dimension) VALUES ($1, $2, $3)
     ON CONFLICT (singleton) DO NOTHING`,
    [configured.provider, configured.model, configured.dimension],
  );
  if (inserted > 0) {
    logger.log(
      `recorded the store's embedding model: ${describe(configured)} ` +
        '(a new store, or the first open since model records were added)',
    );
    return configured;
  }
  const stored = (await readStoreModel(db)) as StoreModel;
  assertSameModel(stored, configured, logger);
  return stored;
}

/** Refuses a store written by another model id or dimension; a provider change only warns. */
export function assertSameModel(stored: StoreModel, configured: StoreModel, logger: Logger): void {
  if (stored.model !== configured.model || stored.dimension !== configured.dimension) {
    throw new ConfigurationError(
      `Embedding model mismatch: the store was written by ${describe(stored)}, but the ` +
        `service is configured for ${describe(configured)}. Configure the store's model ` +
        `(EMBEDDING_PROVIDER, EMBEDDING_MODEL, EMBEDDING_DIMENSION), or ${MODEL_CHANGE_HINT}`,
    );
  }
  if (stored.provider !== configured.provider) {
    // The same model served another way (OpenAI's API, a TEI server) embeds alike.
    logger.warn(
      `the store's model ${stored.model} was recorded under provider ${stored.provider}; ` +
        `now served by ${configured.provider}`,
    );
  }
}

/**
 * How to move to another model, as refusals say it: `reembed` online (run with the store's
 * model configured, the target on the command line), or a new database.
 */
export const MODEL_CHANGE_HINT =
  'move the store with `npx context-bridge reembed --model <id> [--dimension <n>]` run with ' +
  "the store's model configured (online; then configure the new model), or point " +
  'DATA_DIR/DATABASE_URL at a new database and re-ingest ' +
  '(docs/operations.md, "Changing the embedding model").';

function describe(m: StoreModel): string {
  return `${m.provider}/${m.model} (${m.dimension}-d)`;
}
