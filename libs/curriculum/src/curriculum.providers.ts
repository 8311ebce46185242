import { ConfigurationError } from '@app/common';
import { type Provider } from '@nestjs/common';

import { CURRICULUM_OPTIONS, type CurriculumModuleOptions } from './curriculum.module-definition';
import { CURRICULUM_SOURCE, type CurriculumSource } from './interfaces/curriculum-source.interface';
import { LocalCurriculumSource } from './local/local-curriculum.source';
import { NoneCurriculumSource } from './none/none-curriculum.source';
import { PocketBaseCurriculumSource } from './pocketbase/pocketbase-curriculum.source';

/**
 * Picks the implementation from config. The switch is exhaustive, so adding a name to
 * `CurriculumProviderName` fails to compile until it is handled here.
 */
export function createCurriculumSource(options: CurriculumModuleOptions): CurriculumSource {
  switch (options.provider) {
    case 'local':
      if (!options.localData) {
        throw new ConfigurationError('The local curriculum provider needs its data (localData).');
      }
      return new LocalCurriculumSource(options.localData);
    case 'none':
      return new NoneCurriculumSource();
    case 'pocketbase': {
      const { pocketbaseUrl, pocketbaseAdminEmail, pocketbaseAdminPassword } = options;
      if (!pocketbaseUrl || !pocketbaseAdminEmail || !pocketbaseAdminPassword) {
        throw new ConfigurationError(
          'CURRICULUM_PROVIDER=pocketbase needs POCKETBASE_URL, POCKETBASE_ADMIN_EMAIL and POCKETBASE_ADMIN_PASSWORD.',
        );
      }
      return new PocketBaseCurriculumSource({
        url: pocketbaseUrl,
        email: pocketbaseAdminEmail,
        password: pocketbaseAdminPassword,
        timeoutMs: options.timeoutMs,
      });
    }
  }
}

export const curriculumSourceProvider: Provider = {
  provide: CURRICULUM_SOURCE,
  inject: [CURRICULUM_OPTIONS],
  useFactory: createCurriculumSource,
};
