import { Database } from '@app/database';
import { EMBEDDING_PROVIDER } from '@app/embedding';
import {
  LocalPodiumContacts as Contacts,
  type LocalPodiumContacts,
  PODIUM_CONTACTS,
} from '@app/podium';

import { LocalEmbeddingProvider } from '../../libs/embedding/src/local/local-embedding.provider';
import { generateApiKey } from '../../src/config/api-key-entries';
import { bootTestApp, postJson, type TestApp } from './app';
import { HISTORY } from './auth-fixtures';
import { FaultSwitch } from './faults';

/** Fixtures of the adapter e2e suites (Vapi, MCP, OpenAI shape): two tenants and faults. */
export const tenantA = generateApiKey('tenant-a', ['loc_a']);
export const tenantB = generateApiKey('tenant-b', ['loc_b']);
export const ops = generateApiKey('ops');

/** The deadline of every adapter app: short, so a forced miss is quick. */
export const ADAPTER_TIMEOUT_MS = 300;

export interface AdapterApp {
  t: TestApp;
  /** Hang or fail the embedder (all retrieval) and the live CRM lookup. */
  embedFault: FaultSwitch;
  liveFault: FaultSwitch;
}

/**
 * The real app with API keys, the auth suite's two-tenant history (loc_a: ctc_a1; loc_b:
 * ctc_b1 and a CRM-unknown ctc_ghost) and fault switches around the embedder and the CRM.
 */
export async function bootAdapterApp(env: Record<string, string> = {}): Promise<AdapterApp> {
  const embedFault = new FaultSwitch();
  const liveFault = new FaultSwitch();
  const t = await bootTestApp(
    {
      API_KEYS: [tenantA.line, tenantB.line, ops.line].join(','),
      CONTEXT_TIMEOUT_MS: String(ADAPTER_TIMEOUT_MS),
      ...env,
    },
    (builder) =>
      builder
        .overrideProvider(PODIUM_CONTACTS)
        .useFactory({
          factory: (db: Database) => liveFault.wrap(new Contacts(db), ['getContact']),
          inject: [Database],
        })
        .overrideProvider(EMBEDDING_PROVIDER)
        .useValue(embedFault.wrap(new LocalEmbeddingProvider({ workers: 1 }), ['embedBatch'])),
  );
  const ingest = await postJson(`${t.url}/ingest/conversations`, HISTORY, {
    authorization: `Bearer ${ops.key}`,
  });
  expect(ingest.status).toBe(200);
  await t.app.get<LocalPodiumContacts>(PODIUM_CONTACTS).upsert(
    ['ctc_a1', 'ctc_b1'].map((contact_uid) => ({
      contact_uid,
      phone: contact_uid === 'ctc_a1' ? '+15550100' : '+15550200',
      email: null,
      opt_out_sms: contact_uid === 'ctc_a1',
      opt_out_email: false,
      location_uid: contact_uid === 'ctc_a1' ? 'loc_a' : 'loc_b',
      last_seen_at: null,
    })),
  );
  return { t, embedFault, liveFault };
}
