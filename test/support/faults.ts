import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { type TestingModuleBuilder } from '@nestjs/testing';

import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { ConversationMemory } from '../../src/conversations/conversation-memory.service';
import { IngestService } from '../../src/ingest/ingest.service';
import { ContactTombstones } from '../../src/relational/contact-tombstones';
import { HistoryTombstones } from '../../src/relational/history-tombstones';
import { WebhookProcessor } from '../../src/webhooks/webhook-processor';

/**
 * A fault switch around a real provider: while a fault is on, every async method of the
 * wrapped object hangs forever (ignoring abort signals, the worst case) or rejects.
 * Everything else passes through to the real implementation.
 */
export class FaultSwitch {
  mode: 'off' | 'hang' | 'reject' = 'off';
  rejectWith: Error = new Error('injected fault');
  private gate?: Promise<void>;

  /** Holds every call (then passes it through) until the returned release is called. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  wrap<T extends object>(target: T, methods: Array<keyof T>): T {
    return new Proxy(target, {
      get: (obj, prop, receiver) => {
        const value = Reflect.get(obj, prop, receiver) as unknown;
        if (typeof value !== 'function' || !methods.includes(prop as keyof T)) {
          return typeof value === 'function' ? (value.bind(obj) as unknown) : value;
        }
        return (...args: unknown[]) => {
          switch (this.mode) {
            case 'hang':
              return new Promise(() => undefined);
            case 'reject':
              return Promise.reject(this.rejectWith);
            case 'off': {
              const call = () => (value as (...a: unknown[]) => unknown).apply(obj, args);
              return this.gate ? this.gate.then(call) : call();
            }
          }
        };
      },
    });
  }
}

/**
 * Overrides the app's WebhookProcessor with the real one wrapped in `fault` (its `process`),
 * for tests of the webhook worker's retries and outages.
 */
export function faultyWebhookProcessor(fault: FaultSwitch) {
  return (builder: TestingModuleBuilder): TestingModuleBuilder =>
    builder.overrideProvider(WebhookProcessor).useFactory({
      factory: (
        contacts: PodiumContacts,
        memory: ConversationMemory,
        ingest: IngestService,
        config: AppConfig,
        tombstones: ContactTombstones,
        forgets: HistoryTombstones,
      ) =>
        fault.wrap(new WebhookProcessor(contacts, memory, ingest, config, tombstones, forgets), [
          'process',
        ]),
      inject: [
        PODIUM_CONTACTS,
        ConversationMemory,
        IngestService,
        APP_CONFIG,
        ContactTombstones,
        HistoryTombstones,
      ],
    });
}
