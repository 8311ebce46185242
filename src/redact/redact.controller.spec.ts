import { InvalidInputError } from '@app/common';
import { RedactionModule } from '@app/redaction';
import { Test } from '@nestjs/testing';

import { RedactController } from './redact.controller';
import { MAX_REDACT_TEXT_LENGTH } from './redact.dto';

describe('RedactController', () => {
  let sut: RedactController;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RedactionModule.forRoot({})],
      controllers: [RedactController],
    }).compile();
    sut = moduleRef.get(RedactController);
  });

  it('returns the masked text and input offsets', () => {
    expect(sut.redact({ text: 'mail jane@example.com' })).toEqual({
      text: 'mail [REDACTED:EMAIL]',
      entities: [{ type: 'EMAIL', start: 5, end: 21 }],
    });
  });

  it('accepts a text of exactly the limit', () => {
    const text = 'a'.repeat(MAX_REDACT_TEXT_LENGTH);
    expect(sut.redact({ text }).text).toBe(text);
  });

  it('rejects a text one character over the limit with text_too_large', () => {
    let thrown: unknown;
    try {
      sut.redact({ text: 'a'.repeat(MAX_REDACT_TEXT_LENGTH + 1) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidInputError);
    expect(thrown).toMatchObject({ code: 'text_too_large', httpStatus: 400 });
  });
});
