import { LocalPodiumContacts, PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type IngestReport } from '../ingest/ingest.dto';
import { IngestService } from '../ingest/ingest.service';
import { StoreBootstrap } from '../retrieval/store-bootstrap.service';
import { DEMO_CONTACTS } from './demo-contacts';
import { DEMO_CONVERSATIONS } from './demo-conversations';
import { DEMO_TOPICS } from './demo-kb';

/** Turns the demo fixtures into ingest records, one message per turn, a minute apart. */
export function demoConversationRecords() {
  return DEMO_CONVERSATIONS.flatMap((c) =>
    c.turns.map(([sender, text], i) => ({
      conversation_uid: c.conversation_uid,
      contact_uid: c.contact_uid,
      location_uid: c.location_uid,
      channel: c.channel,
      occurred_at: new Date(Date.parse(c.started_at) + i * 60_000).toISOString(),
      sender,
      text,
    })),
  );
}

/**
 * Seeds the demo set through the normal ingest path when the store is empty (SEED_DEMO_DATA),
 * as a step of the store's bring-up: done before the server listens and before readiness.
 */
@Injectable()
export class DemoSeeder implements OnModuleInit {
  private readonly logger = new Logger(DemoSeeder.name);

  constructor(
    private readonly ingest: IngestService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(PODIUM_CONTACTS) private readonly contacts: PodiumContacts,
    private readonly bootstrap: StoreBootstrap,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (!this.config.seedDemoData) {
      return;
    }
    this.bootstrap.beforeReady(async () => {
      const seeded = await this.seedIfEmpty();
      if (seeded) {
        this.logger.log(`seeded demo data: ${JSON.stringify(seeded)}`);
      }
    });
  }

  async seedIfEmpty(): Promise<{ conversations: IngestReport; kb: IngestReport } | undefined> {
    // Only the embedded CRM is ours to seed; a real Podium account has its own contacts.
    if (this.contacts instanceof LocalPodiumContacts && (await this.contacts.count()) === 0) {
      await this.contacts.upsert(DEMO_CONTACTS);
    }
    const counts = await Promise.all([
      this.store.count('conversations'),
      this.store.count('source_chunks'),
    ]);
    if (counts.some((n) => n > 0)) {
      return undefined;
    }
    return {
      conversations: await this.ingest.ingestConversations(demoConversationRecords()),
      kb: await this.ingest.ingestKb(DEMO_TOPICS),
    };
  }
}
