import { LocalPodiumContacts, PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { StoreBootstrap } from '../retrieval/store-bootstrap.service';
import { DEMO_CONTACTS } from './demo-contacts';

/**
 * Where the demo set may not run (production), `PODIUM_PROVIDER=local` is a real CRM only
 * once loaded with `contacts import`: the server refuses to get ready while the table is
 * empty or holds any demo contact, which would otherwise be served as live CRM fields. A CLI
 * process skips the check: `contacts import` is how the table gets filled.
 */
@Injectable()
export class LocalCrmGuard implements OnModuleInit {
  constructor(
    @Inject(PODIUM_CONTACTS) private readonly contacts: PodiumContacts,
    private readonly bootstrap: StoreBootstrap,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const contacts = this.contacts;
    if (
      !this.config.localCrmImportedOnly ||
      this.config.role !== 'server' ||
      !(contacts instanceof LocalPodiumContacts)
    ) {
      return;
    }
    this.bootstrap.beforeReady(async () => {
      const problem = await localCrmProblem(contacts);
      if (problem) {
        throw new Error(
          `PODIUM_PROVIDER=local in production: ${problem}. Load your contacts with ` +
            '`npx context-bridge contacts import <file>`, or set PODIUM_PROVIDER=none (history ' +
            'only) or PODIUM_PROVIDER=api, or ALLOW_DEMO_PROVIDERS=true to run the demo set anyway',
        );
      }
    });
  }
}

/** Why the local CRM is not one production may serve, if it is not. */
async function localCrmProblem(contacts: LocalPodiumContacts): Promise<string | undefined> {
  const demo = await contacts.locationsOf(DEMO_CONTACTS.map((c) => c.contact_uid));
  if (demo.size > 0) {
    return `the local CRM holds ${demo.size} demo contact(s) (ctc_demo_*); delete them`;
  }
  if ((await contacts.count()) === 0) {
    return 'the local CRM is empty';
  }
  return undefined;
}
