import { Test, type TestingModule } from '@nestjs/testing';

import { RedactionModule } from './redaction.module';
import { RedactionService } from './redaction.service';
import { OFFLOAD_MIN_CHARS, RedactionOffloadService } from './redaction-offload.service';
import { RedactionPool } from './worker/redaction-pool';

describe('RedactionOffloadService.redactBundle', () => {
  let moduleRef: TestingModule;
  let sut: RedactionOffloadService;
  let inline: RedactionService;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [RedactionModule.forRoot({})],
    }).compile();
    sut = moduleRef.get(RedactionOffloadService);
    inline = moduleRef.get(RedactionService);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => moduleRef.close());

  const excerpts = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `e${i}`,
      content: `${'the boiler leaks again. '.repeat(20)}mail jane${i}@example.com`,
    }));

  it('masks a bundle under the threshold inline', async () => {
    const pooled = jest.spyOn(RedactionPool.prototype, 'redactAll');
    const small = excerpts(2);
    await expect(sut.redactBundle(small)).resolves.toEqual(inline.redactBundle(small));
    expect(pooled).not.toHaveBeenCalled();
  });

  it('masks many small excerpts that add up past the threshold on a worker, as inline', async () => {
    const pooled = jest.spyOn(RedactionPool.prototype, 'redactAll');
    const many = excerpts(40);
    expect(many.reduce((n, e) => n + e.content.length, 0)).toBeGreaterThan(OFFLOAD_MIN_CHARS);
    const bundle = await sut.redactBundle(many);
    expect(bundle).toEqual(inline.redactBundle(many));
    expect(bundle.counts).toEqual({ EMAIL: 40 });
    expect(bundle.excerpts[3]).toMatchObject({ id: 'e3' });
    expect(pooled).toHaveBeenCalledTimes(1);
  });
});
