import { createEmbeddingProvider, type EmbeddingModuleOptions } from '@app/embedding';

/**
 * The vector dimension the configured embedder produces, asked of the embedder itself as
 * the service's boot asks it (the local model's, OpenAI's published size or
 * EMBEDDING_DIMENSION, TEI's probe). Never a default: a schema built at the wrong size is
 * refused by the service later, so an unknown size fails here, saying what to set.
 */
export async function embedderDimension(options: EmbeddingModuleOptions): Promise<number> {
  const provider = createEmbeddingProvider({ ...options, workers: 1 });
  try {
    return (await provider.init()).dimension;
  } catch (error) {
    throw new Error(
      `cannot tell the vector dimension of EMBEDDING_PROVIDER=${options.provider}` +
        `${options.model ? ` (model ${options.model})` : ''}: ${(error as Error).message} ` +
        (options.provider === 'tei'
          ? 'TEI_URL must answer: the size is probed from the server, as at boot.'
          : 'Set EMBEDDING_DIMENSION to the size the store was built with.'),
    );
  } finally {
    await provider.close();
  }
}
