import { Inject, Injectable, Logger } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { telemetryIds } from '../tracing/telemetry-ids';
import { type ContextBundle } from './context.dto';
import { stageWaterfall } from './explain/stage-waterfall';

/** Contacts remembered as seen, so a line says whether the call was a contact's first. */
const SEEN_CONTACTS = 10_000;
/** Lines per second at most: when everything is slow, the log must not become the load. */
const LINES_PER_SECOND = 20;

/**
 * `SLOW_CALL_LOG_MS`: one warning line per /context call whose server time passed the
 * threshold, with its stage waterfall (explain's stages, derived from `meta.stages`), whether
 * it was partial, and whether this process had seen the contact before (a cold contact's
 * first call). The contact appears only as its keyed hash (`TELEMETRY_HASH_KEY`); no
 * transcript, query or excerpt is logged. Unset: nothing is checked.
 */
@Injectable()
export class SlowCallLog {
  private readonly logger = new Logger('SlowCall');
  private readonly thresholdMs?: number;
  private readonly ids;
  /** Insertion-ordered: the oldest entry is evicted first. */
  private readonly seen = new Set<string>();
  private window = { second: 0, lines: 0, suppressed: 0 };

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.thresholdMs = config.telemetry.slowCallMs;
    this.ids = telemetryIds(config.telemetry.hashKey);
  }

  get enabled(): boolean {
    return this.thresholdMs !== undefined;
  }

  /** Returns the bundle unchanged, so it sits in the call's return path. */
  observe(bundle: ContextBundle, contactUid: string | undefined, now = Date.now()): ContextBundle {
    if (this.thresholdMs === undefined) {
      return bundle;
    }
    const contact = contactUid === undefined ? undefined : this.ids.id(contactUid);
    const firstSeen = contact !== undefined && this.remember(contact);
    const { elapsed_ms: elapsed, partial, stages } = bundle.meta;
    if (elapsed < this.thresholdMs || !this.admit(now)) {
      return bundle;
    }
    const waterfall = stageWaterfall(stages)
      .map((s) => `${s.name}@${s.start_ms}+${s.ms}`)
      .join(' ');
    const suppressed = this.window.suppressed;
    this.window.suppressed = 0;
    this.logger.warn(
      `slow /context ${elapsed} ms (threshold ${this.thresholdMs}): ` +
        `contact ${contact ?? 'none'}${firstSeen ? ' first-seen' : ''}, partial ${partial}, ` +
        `excerpts ${bundle.historical_excerpts.length}; stages ${waterfall}` +
        (suppressed > 0 ? `; ${suppressed} slow calls not logged before this one` : ''),
    );
    return bundle;
  }

  /** True when the contact was not among the recently seen (it is remembered now). */
  private remember(contact: string): boolean {
    if (this.seen.delete(contact)) {
      this.seen.add(contact);
      return false;
    }
    this.seen.add(contact);
    if (this.seen.size > SEEN_CONTACTS) {
      this.seen.delete(this.seen.values().next().value as string);
    }
    return true;
  }

  private admit(now: number): boolean {
    const second = Math.floor(now / 1000);
    if (second !== this.window.second) {
      this.window = { second, lines: 0, suppressed: this.window.suppressed };
    }
    if (this.window.lines >= LINES_PER_SECOND) {
      this.window.suppressed++;
      return false;
    }
    this.window.lines++;
    return true;
  }
}
