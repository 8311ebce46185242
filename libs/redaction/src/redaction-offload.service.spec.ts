import { BACKGROUND_THREAD_NICE, inBackground } from '@app/common';
import { Test, type TestingModule } from '@nestjs/testing';

import { RedactionModule } from './redaction.module';
import { RedactionService } from './redaction.service';
import {
  BACKGROUND_REDACTION_QUEUE,
  OFFLOAD_MIN_CHARS,
  RedactionOffloadService,
} from './redaction-offload.service';
import { RedactionBusyError, RedactionPool } from './worker/redaction-pool';

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

describe('RedactionOffloadService priorities', () => {
  let moduleRef: TestingModule;
  let sut: RedactionOffloadService;

  beforeEach(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [RedactionModule.forRoot({})],
    }).compile();
    sut = moduleRef.get(RedactionOffloadService);
  });
  afterEach(() => moduleRef.close());

  // The issue-37 worst case: a hint word, then 60 KB of hyphen chain.
  const hostile = 'Weg 1 ' + 'A-'.repeat(30_000);

  it('redacts a background text on a niced worker of its own, as inline', async () => {
    const inline = moduleRef.get(RedactionService);
    await expect(sut.redact(hostile, 'background')).resolves.toEqual(inline.redact(hostile));
    expect(sut.started.background?.workerNice).toEqual([BACKGROUND_THREAD_NICE]);
    expect(sut.started.live).toBeUndefined();
    await expect(inBackground(() => sut.redact(hostile))).resolves.toBeDefined();
    expect(sut.started.live).toBeUndefined(); // background work defaults to the background pool
  });

  it('refuses background texts past their own queue with redaction_busy while a live bundle still runs', async () => {
    // One running and BACKGROUND_REDACTION_QUEUE waiting fill the background pool.
    const accepted = Array.from({ length: BACKGROUND_REDACTION_QUEUE + 1 }, () =>
      sut.redact(hostile, 'background'),
    );
    const refused = sut.redact(hostile, 'background');
    await expect(refused).rejects.toBeInstanceOf(RedactionBusyError);
    await expect(refused).rejects.toMatchObject({ code: 'redaction_busy', httpStatus: 503 });
    const live = Array.from({ length: 40 }, (_, i) => ({
      id: `e${i}`,
      content: `${'the boiler leaks again. '.repeat(20)}mail jane${i}@example.com`,
    }));
    await expect(sut.redactBundle(live)).resolves.toMatchObject({ counts: { EMAIL: 40 } });
    expect(sut.started.live?.workerNice).toEqual([0]);
    const results = await Promise.all(accepted);
    expect(results).toHaveLength(BACKGROUND_REDACTION_QUEUE + 1);
  });
});
