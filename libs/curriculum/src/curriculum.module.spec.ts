import { ConfigurationError } from '@app/common';
import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { CurriculumModule } from './curriculum.module';
import { createCurriculumSource } from './curriculum.providers';
import { CURRICULUM_SOURCE, type CurriculumSource } from './interfaces/curriculum-source.interface';
import { type CurriculumData, LocalCurriculumSource } from './local/local-curriculum.source';
import { NoneCurriculumSource } from './none/none-curriculum.source';
import { PocketBaseCurriculumSource } from './pocketbase/pocketbase-curriculum.source';

const localData: CurriculumData = {
  themes: [{ id: 'th', name: 'Theme' }],
  weeks: [{ id: 'wk', themeId: 'th' }],
  employees: [{ userId: 'u1', currentWeekId: 'wk' }],
};

@Injectable()
class Consumer {
  constructor(@Inject(CURRICULUM_SOURCE) readonly source: CurriculumSource) {}
}

@Module({ providers: [Consumer] })
class ConsumerModule {}

describe('CurriculumModule', () => {
  it('provides the configured source under CURRICULUM_SOURCE, globally when asked', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CurriculumModule.forRoot({ provider: 'local', localData, isGlobal: true }),
        ConsumerModule,
      ],
    }).compile();
    const sut = moduleRef.get(Consumer).source;
    expect(sut).toBeInstanceOf(LocalCurriculumSource);
    await expect(sut.currentWeek('u1')).resolves.toMatchObject({ themeId: 'th' });
    await moduleRef.close();
  });

  it('builds the options asynchronously with forRootAsync', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CurriculumModule.forRootAsync({
          useFactory: () => ({
            provider: 'pocketbase' as const,
            pocketbaseUrl: 'http://127.0.0.1:8090',
            pocketbaseAdminEmail: 'ops@example.com',
            pocketbaseAdminPassword: 'secret',
          }),
        }),
      ],
    }).compile();
    expect(moduleRef.get(CURRICULUM_SOURCE)).toBeInstanceOf(PocketBaseCurriculumSource);
    await moduleRef.close();
  });
});

describe('createCurriculumSource', () => {
  it('fails at boot when a provider lacks what it needs', () => {
    expect(() => createCurriculumSource({ provider: 'local' })).toThrow(ConfigurationError);
    expect(() =>
      createCurriculumSource({
        provider: 'pocketbase',
        pocketbaseUrl: 'http://pb:8090',
        pocketbaseAdminEmail: 'ops@example.com',
      }),
    ).toThrow(/POCKETBASE_ADMIN_PASSWORD/);
  });

  it('builds none without data or credentials: everyone is known, no one has a current week', async () => {
    const sut = createCurriculumSource({ provider: 'none' });
    expect(sut).toBeInstanceOf(NoneCurriculumSource);
    for (const userId of ['u1', 'nobody', '', 'x'.repeat(10_000)]) {
      await expect(sut.currentWeek(userId)).resolves.toEqual({
        status: 'found',
        themeId: null,
        themeName: null,
      });
    }
    await expect(sut.isHealthy()).resolves.toBe(true);
    const aborted = AbortSignal.abort();
    await expect(sut.currentWeek('u1', aborted)).rejects.toMatchObject({
      code: 'curriculum_failed',
    });
  });
});
