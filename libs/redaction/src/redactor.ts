import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';

import { type DetectorEntry, DETECTORS } from './detector-table';
import type { Detection, DetectorOptions } from './detectors/detector';
import { ENTITY_TYPES, type EntityType, isEntityType } from './entity-types';
import { normalize, type Normalized } from './normalize';
import { outgoingLabel } from './outgoing-label';
import { DEFAULT_PHONE_REGIONS } from './phone-regions';
import { redactTurns, type Turn } from './redact-turns';
import { detectInWindows, freshMarks, rescanBudget, rescanWindows } from './rescan';
import { render, resolveOverlaps, type Span, toInputSpans, unionSpans } from './resolve';

/** Configuration for a {@link Redactor}. */
export interface RedactorOptions {
  /** Entity types to mask. Omitted or empty means all, so a blank setting never disables
   * redaction. */
  entities?: readonly EntityType[];
  /** Regions whose national phone formats are recognised (default `['US']`). Numbers
   * written with a `+country` prefix are recognised for every country regardless. */
  phoneRegions?: readonly CountryCode[];
}

/** One masked entity, with `[start, end)` offsets into the text given to `redact`. */
export interface RedactedEntity {
  type: EntityType;
  start: number;
  end: number;
}

/** The outcome of {@link Redactor.redact}. */
export interface RedactionResult {
  text: string;
  entities: RedactedEntity[];
}

/** An excerpt of a bundle: its text, and the channel label that leaves with it. */
export interface BundleExcerpt {
  content: string;
  channel?: string | null;
}

/** The outcome of {@link Redactor.redactBundle}. */
export interface RedactedBundle<T> {
  excerpts: T[];
  /** Masked entities per type across all excerpts; types with none are absent. */
  counts: Partial<Record<EntityType, number>>;
  /** The same per excerpt, in input order: only when asked for (the explain mode). */
  perExcerpt?: Array<Partial<Record<EntityType, number>>>;
}

const HAS_DIGIT = /\d/;

/**
 * Redaction runs to a fixed point, which is what makes it idempotent. Masking changes the
 * text around each span: a date moves within reach of its "born", a house number is no
 * longer glued to a phone number, digits that lost an overlap form a run of their own. So
 * a second pass over the output may find more; it runs only when the first found
 * something, and reads only around the new masks (see `rescan.ts`). Two passes settle real
 * text; the cap and the rescan budget bound adversarial input.
 */
const MAX_PASSES = 4;

/**
 * Masks PII in free text with typed placeholders (`[REDACTED:CC]`, …). Stateless after
 * construction and safe to share. `redact` is idempotent: its output contains nothing it
 * would mask again, and placeholders are never detected.
 */
export class Redactor {
  private readonly options: DetectorOptions;
  private readonly detectors: readonly DetectorEntry[];

  /** @throws Error for an unknown entity type or an unsupported phone region. */
  constructor(options: RedactorOptions = {}) {
    const entities = options.entities?.length ? options.entities : ENTITY_TYPES;
    const unknown = entities.filter((e) => !isEntityType(e));
    if (unknown.length > 0) {
      throw new Error(`Unknown redaction entity type(s): ${unknown.join(', ')}`);
    }
    const regions = options.phoneRegions?.length ? options.phoneRegions : DEFAULT_PHONE_REGIONS;
    const unsupported = regions.filter((r) => !isSupportedCountry(r));
    if (unsupported.length > 0) {
      throw new Error(`Unsupported phone region(s): ${unsupported.join(', ')}`);
    }
    const enabled = new Set(entities);
    this.options = { enabled, phoneRegions: [...new Set(regions)] };
    this.detectors = DETECTORS.filter((d) => d.types.some((t) => enabled.has(t)));
  }

  /** The entity types this redactor masks. */
  get entities(): EntityType[] {
    return ENTITY_TYPES.filter((t) => this.options.enabled.has(t));
  }

  /**
   * Masks every enabled entity in `input`; offsets in the result refer to `input`.
   * Detection runs on the Unicode-folded text (see {@link normalize}); the spans are mapped
   * back and the input itself is what gets rendered, so characters outside them survive.
   */
  redact(input: string): RedactionResult {
    const folded = normalize(input);
    let spans = this.spansOf(input, folded);
    if (folded?.heldMarkup) {
      // Markup kept for what it may hold ("<span title='a b'>") also splits what it sits in
      // ("4<span title='a b'>1</span>5 …"): a second reading drops it, and both count.
      spans = unionSpans(spans, this.spansOf(input, normalize(input, true)));
    }
    return {
      text: render(input, spans),
      entities: spans.map(({ type, start, end }) => ({ type, start, end })),
    };
  }

  /** The masks of `input` read as `folded` (undefined: as it is), in `input` offsets. */
  private spansOf(input: string, folded: Normalized | undefined): Span[] {
    const text = folded?.text ?? input;
    let spans: Span[] = this.detect(text);
    let fresh: ReadonlySet<Span> = new Set(spans);
    let budget = Infinity;
    for (let pass = 1; pass < MAX_PASSES && fresh.size > 0 && budget > 0; pass++) {
      const { marks, length } = freshMarks(text.length, spans, fresh);
      if (pass === 1) {
        // Of the rendered text, which placeholders may make longer than the input: the second
        // pass must always fit, or a text its masks lengthen would skip it (a bypass).
        budget = rescanBudget(length);
      }
      const windows = rescanWindows(marks, length, budget);
      if (windows.length === 0) {
        break;
      }
      budget -= windows.reduce((n, w) => n + w.end - w.start, 0);
      const current = render(text, spans);
      const found = resolveOverlaps(detectInWindows(current, windows, (w) => this.candidates(w)));
      const added = toInputSpans(found, spans);
      if (added.length === 0) {
        break;
      }
      spans = [...spans, ...added].sort((a, b) => a.start - b.start);
      fresh = new Set(added);
    }
    if (folded) {
      spans = spans.map((s) => ({
        type: s.type,
        start: folded.starts[s.start],
        end: folded.ends[s.end - 1],
      }));
    }
    return spans;
  }

  /**
   * Masks a run of consecutive messages (oldest first) as one conversation, so a value split
   * over two messages is masked in both; see {@link redactTurns}.
   */
  redactTurns(turns: readonly Turn[]): string[] {
    return redactTurns(turns, (text) => this.redact(text));
  }

  /**
   * Redacts the `content` of every excerpt. Returns new objects (other fields copied) and
   * leaves the inputs untouched. `perExcerpt` also counts by type for each excerpt; off, the
   * hot path allocates nothing more than before.
   */
  redactBundle<T extends BundleExcerpt>(
    excerpts: readonly T[],
    perExcerpt = false,
  ): RedactedBundle<T> {
    return bundleOf(
      excerpts,
      excerpts.map((e) => this.redact(e.content)),
      perExcerpt,
    );
  }

  private detect(text: string): Detection[] {
    return resolveOverlaps(this.candidates(text));
  }

  /** Every enabled detector's candidates, overlapping. */
  private candidates(text: string): Detection[] {
    const hasDigit = HAS_DIGIT.test(text);
    const candidates: Detection[] = [];
    for (const detector of this.detectors) {
      if (hasDigit || !detector.needsDigit) {
        detector.detect(text, this.options, candidates);
      }
    }
    return candidates.filter((c) => this.options.enabled.has(c.type));
  }
}

/**
 * The bundle of `excerpts` given each one's redaction (`results`, in the same order): new
 * objects with the masked content, a channel only if it is a word (see outgoing-label.ts),
 * and counts by type.
 */
export function bundleOf<T extends BundleExcerpt>(
  excerpts: readonly T[],
  results: readonly RedactionResult[],
  perExcerpt = false,
): RedactedBundle<T> {
  const counts: Partial<Record<EntityType, number>> = {};
  const each: Array<Partial<Record<EntityType, number>>> | undefined = perExcerpt ? [] : undefined;
  const redacted = excerpts.map((excerpt, i) => {
    const result = results[i];
    const own: Partial<Record<EntityType, number>> | undefined = each ? {} : undefined;
    for (const { type } of result.entities) {
      counts[type] = (counts[type] ?? 0) + 1;
      if (own) {
        own[type] = (own[type] ?? 0) + 1;
      }
    }
    if (own) {
      each?.push(own);
    }
    const masked: T = { ...excerpt, content: result.text };
    if (typeof excerpt.channel === 'string') {
      // A stored label leaves with the text: held to a word like it.
      (masked as { channel?: string }).channel = outgoingLabel(excerpt.channel);
    }
    return masked;
  });
  const bundle: RedactedBundle<T> = { excerpts: redacted, counts };
  if (each) {
    bundle.perExcerpt = each;
  }
  return bundle;
}
