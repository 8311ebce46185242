import { type FakeTeiEmbed, startFakeTeiEmbed } from '../../../test/fakes/tei-embed-server';
import { EmbeddingService } from './embedding.service';
import { type EmbeddingProvider } from './interfaces/embedding-provider.interface';
import { TeiEmbeddingProvider } from './tei/tei-embedding.provider';

/** The old model: 768-d, its one embed held until the test lets it answer. */
function heldProvider(): EmbeddingProvider & { answer(): void } {
  let answer = () => {};
  return {
    answer: () => answer(),
    init: () =>
      Promise.resolve({ provider: 'local', model: 'old', dimension: 768, defaultThreshold: 0.5 }),
    embedBatch: (texts: string[]) =>
      new Promise((resolve) => {
        answer = () => resolve(texts.map(() => new Array<number>(768).fill(0.1)));
      }),
    close: () => Promise.resolve(),
  };
}

describe('EmbeddingService query cache across a model switch (reembed)', () => {
  let tei: FakeTeiEmbed;

  beforeAll(async () => {
    tei = await startFakeTeiEmbed({ dimension: 384, modelId: 'BAAI/bge-small-en-v1.5' });
  });
  afterAll(() => tei.close());

  it('never caches a vector the old model answered after the switch, so the query is embedded on the new one', async () => {
    const old = heldProvider();
    const sut = new EmbeddingService(old, { provider: 'tei', teiUrl: tei.url });
    await sut.whenReady();
    const inFlight = sut.embedQuery('when will my table ship');
    await sut.switchModel({ provider: 'tei', model: 'BAAI/bge-small-en-v1.5', dimension: 384 });
    old.answer(); // the retired provider finishes the call it had started
    expect(await inFlight).toHaveLength(768);
    // Cached, the old model's vector would meet the new column on every repeat of the query.
    expect(await sut.embedQuery('when will my table ship')).toHaveLength(384);
    await sut.onApplicationShutdown();
  });

  it('closes the provider it built when that provider cannot start, and keeps serving the old one', async () => {
    // The store follower retries a failed switch every second: an unclosed provider each time
    // (a local one holds its worker threads) would pile up.
    const close = jest.spyOn(TeiEmbeddingProvider.prototype, 'close');
    const old = heldProvider();
    const sut = new EmbeddingService(old, { provider: 'tei', teiUrl: tei.url });
    await sut.whenReady();
    tei.failNext(503);
    await expect(
      sut.switchModel({ provider: 'tei', model: 'BAAI/bge-small-en-v1.5', dimension: 384 }),
    ).rejects.toMatchObject({ code: 'embedding_failed' });
    expect(close).toHaveBeenCalledTimes(1);
    expect(sut.info).toMatchObject({ model: 'old', dimension: 768 });
    close.mockRestore();
  });
});
