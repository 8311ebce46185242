import { LocalPodiumContacts, PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { type IngestReport } from '../ingest/ingest.dto';
import { IngestService } from '../ingest/ingest.service';
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

/** Seeds the demo set through the normal ingest path when the store is empty. */
@Injectable()
export class DemoSeeder {
  constructor(
    private readonly ingest: IngestService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(PODIUM_CONTACTS) private readonly contacts: PodiumContacts,
  ) {}

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
