import { ADVERSARIAL_CASES, adversarialText } from '../adversarial';
import { Redactor } from '../redactor';
import { REDACTION_WORKER_LIMITS, RedactionBusyError, RedactionPool } from './redaction-pool';

describe('RedactionPool', () => {
  let sut: RedactionPool;

  afterEach(async () => {
    await sut.close();
  });

  it('redacts on a worker exactly as the redactor does inline', async () => {
    sut = new RedactionPool({ redactor: {} });
    const texts = [
      'mail jane@example.com or call (415) 555-0134',
      adversarialText(ADVERSARIAL_CASES[0], 8 * 1024),
      'card ④①①① ①①①① ①①①① ①①①①',
    ];
    const inline = new Redactor();
    for (const text of texts) {
      await expect(sut.redact(text)).resolves.toEqual(inline.redact(text));
    }
  });

  it('redacts a batch in one hand-off, results in input order', async () => {
    sut = new RedactionPool({ redactor: {} });
    const texts = ['mail jane@example.com', 'nothing here', 'call (415) 555-0134'];
    const inline = new Redactor();
    await expect(sut.redactAll(texts)).resolves.toEqual(texts.map((t) => inline.redact(t)));
    await expect(sut.redactAll([])).resolves.toEqual([]);
  });

  it('applies the configured entity types', async () => {
    sut = new RedactionPool({ redactor: { entities: ['EMAIL'] } });
    await expect(sut.redact('jane@example.com (415) 555-0134')).resolves.toEqual({
      text: '[REDACTED:EMAIL] (415) 555-0134',
      entities: [{ type: 'EMAIL', start: 0, end: 16 }],
    });
  });

  it('runs its worker thread at the nice it was given, and at 0 by default', async () => {
    sut = new RedactionPool({ redactor: {}, nice: 10 });
    await sut.redact('x'.repeat(10));
    expect(sut.workerNice).toEqual([10]);
    await sut.close();
    sut = new RedactionPool({ redactor: {} });
    await sut.redact('x'.repeat(10));
    expect(sut.workerNice).toEqual([0]);
  });

  it('bounds each worker heap (REDACTION_WORKER_LIMITS), still redacting a worst-case 64 KB text', async () => {
    sut = new RedactionPool({ redactor: {} });
    const hostile = 'Weg 1 ' + 'A-'.repeat(32_000);
    await expect(sut.redact(hostile)).resolves.toEqual(new Redactor().redact(hostile));
    const { maxOldGenerationSizeMb = 0, maxYoungGenerationSizeMb = 0 } = REDACTION_WORKER_LIMITS;
    const [limit] = sut.workerHeapLimitMb;
    // V8 adds its own reserve on top of old + young generation; an unbounded worker gets GBs.
    expect(limit).toBeGreaterThan(maxOldGenerationSizeMb);
    expect(limit).toBeLessThanOrEqual(2 * (maxOldGenerationSizeMb + maxYoungGenerationSizeMb));
  });

  it('refuses a call past its bounded queue with redaction_busy', async () => {
    sut = new RedactionPool({ size: 1, maxQueue: 2, redactor: {} });
    const text = 'call 415 555 0134 '.repeat(2000);
    const accepted = [sut.redact(text), sut.redact(text), sut.redact(text)];
    await expect(sut.redact(text)).rejects.toBeInstanceOf(RedactionBusyError);
    await expect(sut.redact(text)).rejects.toMatchObject({
      code: 'redaction_busy',
      httpStatus: 503,
    });
    const results = await Promise.all(accepted);
    expect(results.every((r) => r.entities.length === 2000)).toBe(true);
  });
});
