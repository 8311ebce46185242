import { roundMs, withDeadline } from '@app/common';
import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { outgoingLabel, RedactionService } from '@app/redaction';
import { Inject, Injectable } from '@nestjs/common';

import { type LocationScope } from '../auth/principal';
import { scopedLocations } from '../auth/tenant';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { historyFilter } from '../context/call-scope';
import { ContextRetriever } from '../context/context-retriever';
import { scopeLive, toBundleContact } from '../context/live-contact';
import { type CallIdentity, CallSessions } from '../context/speculative/call-sessions';
import { type CallOpening, type CallStartDto } from './calls.dto';
import { RecentMessages } from './recent-messages';

/** The opening bundle's own deadline, shorter than /context's: the phone is still ringing. */
const OPENING_TIMEOUT_MS = 300;
const DEFAULT_MESSAGES = 5;
/** Budget of the background warm-up search (nobody waits for it). */
const WARM_TIMEOUT_MS = 2_000;

/**
 * `POST /calls`: sent while the call rings. Tracks the call (bounded per caller and in total),
 * answers with the live contact and its newest messages within its own deadline, and warms
 * what the first turn touches in the background: the live-contact cache (the lookup above),
 * the contact's index pages and the search path (one search over the contact's history).
 */
@Injectable()
export class CallOpeningService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: CallSessions,
    private readonly recent: RecentMessages,
    private readonly retriever: ContextRetriever,
    private readonly redaction: RedactionService,
    @Inject(PODIUM_CONTACTS) private readonly podium: PodiumContacts,
  ) {}

  async open(
    body: CallStartDto,
    scope: LocationScope,
    caller: string,
    arrivedAt: number,
  ): Promise<CallOpening> {
    const locations = scopedLocations(scope, body.location_uid);
    const identity: CallIdentity = {
      caller,
      callId: body.call_id,
      contactUid: body.contact_uid,
      locationUid: body.location_uid,
      scope,
    };
    this.sessions.open(identity);
    const timeoutMs = body.timeout_ms ?? OPENING_TIMEOUT_MS;
    const deadline = arrivedAt + timeoutMs;
    const left = () => Math.max(0, deadline - performance.now());
    const [live, recent] = await Promise.all([
      withDeadline(left(), (signal) =>
        this.podium.getContact(body.contact_uid, signal, scope?.join(',')),
      ),
      withDeadline(left(), () =>
        this.recent.latest(body.contact_uid, locations, body.max_messages ?? DEFAULT_MESSAGES),
      ),
    ]);
    const messages = recent.status === 'ok' ? recent.value : [];
    this.warm(messages[0]?.text, body, locations);
    const liveOutcome = scopeLive(live, scope);
    // Stored redacted; redacted again on the way out, as every excerpt is, and read in
    // conversation order as one text, so a number split over two messages is masked in both.
    const contents = this.redaction.redactTurns([...messages].reverse()).reverse();
    return {
      call_id: body.call_id,
      contact: toBundleContact(liveOutcome),
      recent_messages: messages.map((m, i) => ({
        // Stored labels leave held to a word (channel) or redacted (sender) like the text.
        channel: outgoingLabel(m.channel),
        occurred_at: m.occurred_at,
        sender: this.redaction.redact(m.sender).text,
        content: contents[i],
      })),
      meta: {
        elapsed_ms: roundMs(performance.now() - arrivedAt),
        timeout_ms: timeoutMs,
        partial: recent.status !== 'ok' || liveOutcome.status === 'timeout',
        idle_timeout_ms: this.config.calls.idleMs,
      },
    };
  }

  /** One search over the contact's history, so its index pages are in cache for turn one. */
  private warm(text: string | undefined, body: CallStartDto, locations: string[] | undefined) {
    const until = performance.now() + WARM_TIMEOUT_MS;
    const query = text?.trim() ? text : 'hello';
    void this.retriever.retrieve(
      query,
      historyFilter(body, locations),
      this.config.context.poolK,
      () => Math.max(0, until - performance.now()),
      {},
      'query',
    );
  }
}
