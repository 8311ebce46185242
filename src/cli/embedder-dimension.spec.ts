import { embedderDimension } from './embedder-dimension';

describe('embedderDimension (the TypeORM data source vector size)', () => {
  it("takes OpenAI's published size for the configured model, not 512", async () => {
    await expect(
      embedderDimension({
        provider: 'openai',
        openaiApiKey: 'sk-test',
        model: 'text-embedding-3-large',
      }),
    ).resolves.toBe(3072);
    await expect(embedderDimension({ provider: 'openai', openaiApiKey: 'sk-test' })).resolves.toBe(
      1536,
    );
  });

  it('takes EMBEDDING_DIMENSION for a model whose size is not published', async () => {
    await expect(
      embedderDimension({
        provider: 'openai',
        openaiApiKey: 'sk-test',
        model: 'in-house-embedder',
        dimension: 768,
      }),
    ).resolves.toBe(768);
  });

  it('fails saying what to set when the size cannot be known (never a fallback)', async () => {
    await expect(
      embedderDimension({ provider: 'openai', openaiApiKey: 'sk-test', model: 'in-house' }),
    ).rejects.toThrow(
      /cannot tell the vector dimension of EMBEDDING_PROVIDER=openai \(model in-house\).*Set EMBEDDING_DIMENSION/s,
    );
    // TEI is probed like at boot; an unreachable server is an error, not 512.
    await expect(
      embedderDimension({ provider: 'tei', teiUrl: 'http://127.0.0.1:9' }),
    ).rejects.toThrow(/EMBEDDING_PROVIDER=tei.*TEI_URL must answer/s);
  });
});
