import { ConfigurationError } from '@app/common';
import { Database } from '@app/database';
import { ConfigurableModuleBuilder, Module, type Provider } from '@nestjs/common';

import { PODIUM_CONTACTS, type PodiumContacts } from './interfaces/podium-contacts.interface';
import { LocalPodiumContacts } from './local/local-podium-contacts';

export interface PodiumModuleOptions {
  provider: 'local' | 'api';
}

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } =
  new ConfigurableModuleBuilder<PodiumModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();

/** Picks the CRM implementation; exhaustive so a new provider must be handled. */
export function createPodiumContacts(
  options: PodiumModuleOptions,
  database: Database,
): PodiumContacts {
  switch (options.provider) {
    case 'local':
      return new LocalPodiumContacts(database);
    case 'api':
      throw new ConfigurationError(
        'PODIUM_PROVIDER=api is not available in this build yet; use local.',
      );
  }
}

const podiumContactsProvider: Provider = {
  provide: PODIUM_CONTACTS,
  inject: [MODULE_OPTIONS_TOKEN, Database],
  useFactory: createPodiumContacts,
};

/** The live CRM surface of the context bridge. */
@Module({ providers: [podiumContactsProvider], exports: [podiumContactsProvider] })
export class PodiumModule extends ConfigurableModuleClass {}
