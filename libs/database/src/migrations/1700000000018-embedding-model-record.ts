import { type Migration } from './migration';

/**
 * Which embedding model wrote the store's vectors: one row (provider, model id, dimension),
 * written by the first open that knows the model (a store from before this step is recorded
 * from the configuration it next opens with). A boot with another model id or dimension is
 * refused, since vectors of two models are not comparable (issue 39). Not per location, so
 * no row-level policy: it holds no customer data.
 */
export const embeddingModelRecord: Migration = {
  name: 'EmbeddingModelRecord1700000000018',
  up: (tx) =>
    tx.exec(`
      CREATE TABLE embedding_model (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        provider text NOT NULL CHECK (length(provider) BETWEEN 1 AND 40),
        model text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
        dimension int NOT NULL CHECK (dimension BETWEEN 1 AND 16000),
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`),
};
