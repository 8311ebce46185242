import { BACKGROUND_THREAD_NICE, InvalidInputError } from '@app/common';
import {
  RedactionModule,
  RedactionOffloadService,
} from '@app/redaction';
import { Test, type TestingModule } from '@nestjs/testing';

import { RedactController } from './redact.controller';
import { MAX_REDACT_TEXT_LENGTH } from './redact.dto';

describe('RedactController', () => {
  let sut: RedactController;
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [RedactionModule.forRoot({})],
      controllers: [RedactController],
    }).compile();
    sut = moduleRef.get(RedactController);
  });

  afterAll(async () => {
    await moduleRef.close();
  });

  it('returns the masked text and input offsets', async () => {
    await expect(sut.redact({ text: 'mail jane@example.com' })).resolves.toEqual({
      text: 'mail [REDACTED:EMAIL]',
      entities: [{ type: 'EMAIL', start: 5, end: 21 }],
    });
  });

  it('accepts a text of exactly the limit, redacting it on a worker', async () => {
    const text = `${'a'.repeat(MAX_REDACT_TEXT_LENGTH - 20)} call (415) 555-0134`;
    const result = await sut.redact({ text });
    expect(result.entities).toEqual([
      { type: 'PHONE', start: MAX_REDACT_TEXT_LENGTH - 14, end: MAX_REDACT_TEXT_LENGTH },
    ]);
  });

  it('redacts a large text on the niced background pool, never the live one', async () => {
    const offload = moduleRef.get(RedactionOffloadService);
    await sut.redact({ text: 'Weg 1 ' + 'A-'.repeat(30_000) });
    expect(offload.started.background?.workerNice).toEqual([BACKGROUND_THREAD_NICE]);
    expect(offload.started.live).toBeUndefined();
  });

  it('rejects a text one character over the limit with text_too_large', async () => {
    const redacting = sut.redact({ text: 'a'.repeat(MAX_REDACT_TEXT_LENGTH + 1) });
    await expect(redacting).rejects.toBeInstanceOf(InvalidInputError);
    await expect(redacting).rejects.toMatchObject({ code: 'text_too_large', httpStatus: 400 });
  });
});
