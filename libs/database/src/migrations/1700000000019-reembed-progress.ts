import { type Migration } from './migration';

/**
 * An online model change (`context-bridge reembed`, issue 39):
 * - `embedding_reembed`: the model a reembed under way moves the store to (one row while it
 *   runs). Its progress is the shadow column itself (`embedding_next IS NULL`: still to do),
 *   so a killed run resumes where the database says, and a second run is idempotent.
 * - `reembed_invalidate()`: the trigger function a reembed attaches to each vector table
 *   while the shadow column exists. A row whose text or vector the service rewrites loses its
 *   new-model vector, so the backfill embeds it again rather than switching a stale one.
 */
export const reembedProgress: Migration = {
  name: 'ReembedProgress1700000000019',
  up: (tx) =>
    tx.exec(`
      CREATE TABLE embedding_reembed (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        provider text NOT NULL CHECK (length(provider) BETWEEN 1 AND 40),
        model text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
        dimension int NOT NULL CHECK (dimension BETWEEN 1 AND 16000),
        started_at timestamptz NOT NULL DEFAULT now());
      CREATE FUNCTION reembed_invalidate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.content IS DISTINCT FROM OLD.content
           OR NEW.embedding IS DISTINCT FROM OLD.embedding THEN
          NEW.embedding_next := NULL;
        END IF;
        RETURN NEW;
      END $$;`),
};
