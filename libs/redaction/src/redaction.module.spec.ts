import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { RedactionModule } from './redaction.module';
import { RedactionService } from './redaction.service';

/** A consumer in a feature module that does not import RedactionModule itself. */
@Injectable()
class Consumer {
  constructor(readonly redaction: RedactionService) {}
}

@Module({ providers: [Consumer] })
class FeatureModule {}

describe('RedactionModule', () => {
  it('forRoot registers a global RedactionService configured from the options', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RedactionModule.forRoot({ entities: ['EMAIL'] }), FeatureModule],
    }).compile();

    const sut = moduleRef.get(Consumer).redaction;
    expect(sut.entities).toEqual(['EMAIL']);
    expect(sut.redact('jane@example.com 415-555-0134').text).toBe('[REDACTED:EMAIL] 415-555-0134');
    expect(sut.redactBundle([{ content: 'jane@example.com' }]).counts).toEqual({ EMAIL: 1 });
  });

  it('forRootAsync builds the options from a factory', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        RedactionModule.forRootAsync({ useFactory: () => ({ phoneRegions: ['GB'] as const }) }),
      ],
    }).compile();

    const sut = moduleRef.get(RedactionService);
    expect(sut.redact('ring 020 7946 0958').text).toBe('ring [REDACTED:PHONE]');
  });

  it('fails to start on an unknown entity type', async () => {
    await expect(
      Test.createTestingModule({
        imports: [RedactionModule.forRoot({ entities: ['PASSPORT' as never] })],
      }).compile(),
    ).rejects.toThrow(/PASSPORT/);
  });
});
