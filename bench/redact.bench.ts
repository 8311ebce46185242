/**
 * Redaction benchmark: latency, throughput and recall of `Redactor` against the spec's
 * naive regex list, on real customer/agent dialogues (SGD) with injected PII.
 *
 *   node -r @swc-node/register bench/redact.bench.ts [excerpts=600] [rounds=5]
 *   (add --expose-gc to start each timed phase from a collected heap)
 *
 * Prints one JSON object. Env: SGD_CONVERSATIONS and SQUAD_CORPUS override the data paths.
 * Latency is per ~2 KB excerpt and per 5-excerpt bundle (the budget: bundle p99
 * well under 5 ms). Recall counts injected PII strings that no longer appear verbatim in
 * the output. `masks_per_100kb_wikipedia` counts placeholders produced on SQuAD
 * paragraphs, prose full of years, prices and counts but nearly free of personal data: a
 * proxy for false positives.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

import { Redactor } from '@app/redaction';

import { adversarial, ADVERSARIAL_SEEDS } from '../libs/redaction/src/adversarial';

const SGD = process.env.SGD_CONVERSATIONS ?? '/work/shared/data/sgd/conversations.jsonl';
const SQUAD = process.env.SQUAD_CORPUS ?? '/work/shared/data/squad/corpus.jsonl';
const EXCERPTS = Number(process.argv[2] ?? 600);
const ROUNDS = Number(process.argv[3] ?? 5);
const EXCERPT_BYTES = 2048;
const BUNDLE = 5;

/** The spec's section-4 filter, ported verbatim (including its DOB pattern that cannot match). */
const NAIVE: ReadonlyArray<[RegExp, string]> = [
  [/\b\d{13,19}\b/g, '[REDACTED:CC]'],
  [/\b\d{3}-?\d{2}-?\d{4}\b/g, '[REDACTED:SSN]'],
  [/\b\d{1,5}\s+\w+\s+(St|Ave|Rd|Blvd|Lane|Ln|Dr|Drive|Court|Ct)\b/gi, '[REDACTED:ADDR]'],
  [/\b[\w.+-]+@[\w-]+\.[\w.-]+\b/g, '[REDACTED:EMAIL]'],
  [/\+?\d[\d\s\-().]{8,}\d/g, '[REDACTED:PHONE]'],
  [/\b(0?[1-9]|1[0-2])\/-\/-\d{2}\b/g, '[REDACTED:DOB]'],
];

function naiveRedact(text: string): string {
  return NAIVE.reduce((t, [pattern, placeholder]) => t.replace(pattern, placeholder), text);
}

/** mulberry32: a seeded PRNG, so every run benchmarks the same corpus. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const digits = (n: number): string =>
  Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const spoken = (d: string): string =>
  [...d].map((c) => (c === '0' && random() < 0.5 ? 'oh' : WORDS[+c])).join(' ');

const CARDS = [
  '4111111111111111',
  '5500005555555559',
  '6011111111111117',
  '4012888888881881',
  '5105105105105100',
];
const AMEX = ['378282246310005', '371449635398431'];
const IBANS = [
  'GB82 WEST 1234 5698 7654 32',
  'DE89 3704 0044 0532 0130 00',
  'FR14 2004 1010 0505 0001 3M02 606',
];
const STREETS = [
  '742 Evergreen Terrace, Springfield, IL 62704',
  '1350 Grant Road',
  '77 Oak Ave, Apt 4B',
  'PO Box 1234',
];
const MONTHS = ['January', 'March', 'June', 'September', 'November'];
const octet = (): number => Math.floor(random() * 256);
const group4 = (d: string, sep: string): string => d.match(/.{1,4}/g)!.join(sep);
const phone = (): string =>
  `${200 + Math.floor(random() * 700)}-${200 + Math.floor(random() * 700)}-${digits(4)}`;

/** Each injection: the sentence a customer says, and the PII string that must disappear. */
const INJECTIONS: ReadonlyArray<() => { line: string; pii: string }> = [
  () =>
    ((c) => ({ line: `my card number is ${c}, expiry 12/27`, pii: c }))(
      group4(pick(CARDS), pick([' ', '-', ''])),
    ),
  () =>
    ((c) => ({ line: `the amex is ${c}`, pii: c }))(
      pick(AMEX).replace(/^(\d{4})(\d{6})(\d{5})$/, '$1 $2 $3'),
    ),
  () => ((c) => ({ line: `my card is ${c} thanks`, pii: c }))(spoken(pick(CARDS))),
  () =>
    ((s) => ({ line: `my social is ${s}`, pii: s }))(
      `${100 + Math.floor(random() * 500)}-${10 + Math.floor(random() * 89)}-${1000 + Math.floor(random() * 8999)}`,
    ),
  () =>
    ((p) => ({ line: `you can reach me at ${p} after six`, pii: p }))(
      pick([
        phone(),
        `(415) 555-${digits(4)}`,
        `+1 212 555 ${digits(4)}`,
        `+44 20 7946 ${digits(4)}`,
      ]),
    ),
  () =>
    ((p) => ({ line: `my number is ${p}`, pii: p }))(
      spoken(`555${pick(['0', '2', '7'])}${digits(3)}`),
    ),
  () =>
    ((e) => ({ line: `email me at ${e} please`, pii: e }))(
      `${pick(['jane', 'j.doe', 'mark+bills'])}${digits(2)}@${pick(['example.com', 'mail.co.uk', 'corp.io'])}`,
    ),
  () => ((i) => ({ line: `wire the refund to ${i}`, pii: i }))(pick(IBANS)),
  () =>
    ((i) => ({ line: `I logged in from ${i} yesterday`, pii: i }))(
      pick([`10.${octet()}.${octet()}.${octet()}`, `2001:db8::${octet().toString(16)}`]),
    ),
  () => ((a) => ({ line: `ship it to ${a} please`, pii: a }))(pick(STREETS)),
  () =>
    ((d) => ({ line: `my date of birth is ${d}`, pii: d }))(
      pick([
        `03/${10 + Math.floor(random() * 18)}/19${60 + Math.floor(random() * 39)}`,
        `${pick(MONTHS)} ${1 + Math.floor(random() * 27)}th, 19${60 + Math.floor(random() * 39)}`,
      ]),
    ),
];

interface Excerpt {
  content: string;
  pii: string[];
}

/** ~2 KB excerpts of consecutive dialogue turns, three PII sentences spliced in at random turns. */
function buildExcerpts(): Excerpt[] {
  const turns: string[] = [];
  for (const line of readFileSync(SGD, 'utf8').split('\n')) {
    if (line) {
      for (const t of (JSON.parse(line) as { turns: Array<{ speaker: string; text: string }> })
        .turns) {
        turns.push(`${t.speaker}: ${t.text}`);
      }
    }
  }
  const excerpts: Excerpt[] = [];
  let at = 0;
  while (excerpts.length < EXCERPTS) {
    const lines: string[] = [];
    const pii: string[] = [];
    for (let k = 0; k < 3; k++) {
      const injected = pick(INJECTIONS)();
      lines.push(`USER: ${injected.line}.`);
      pii.push(injected.pii);
    }
    while (lines.join('\n').length < EXCERPT_BYTES) {
      lines.splice(Math.floor(random() * (lines.length + 1)), 0, turns[at++ % turns.length]);
    }
    excerpts.push({ content: lines.join('\n').slice(0, EXCERPT_BYTES + 200), pii });
  }
  return excerpts;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n: number, places = 3): number => Number(n.toFixed(places));

async function measure(
  name: string,
  redact: (text: string) => string,
  excerpts: Excerpt[],
  control: string[],
) {
  // Warm-up: JIT, regex compilation, libphonenumber metadata, and the heap settling after
  // the corpus was loaded (its promotion makes early scavenges slow). With --expose-gc the
  // heap is also collected once before timing starts.
  for (let r = 0; r < 2; r++) {
    for (const e of excerpts) {
      redact(e.content);
    }
  }
  (globalThis as { gc?: () => void }).gc?.();
  // GC pauses during the timed loops, to tell allocation cost from scheduler noise.
  const gc: number[] = [];
  const observer = new PerformanceObserver((list) =>
    gc.push(...list.getEntries().map((e) => e.duration)),
  );
  observer.observe({ entryTypes: ['gc'] });
  const perExcerpt: number[] = [];
  let bytes = 0;
  let elapsed = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const e of excerpts) {
      const t0 = performance.now();
      redact(e.content);
      const dt = performance.now() - t0;
      perExcerpt.push(dt);
      elapsed += dt;
      bytes += Buffer.byteLength(e.content);
    }
  }
  const perBundle: number[] = [];
  const bestPerBundle: number[] = []; // fastest round per bundle: the cost without GC or CPU-steal noise
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0, b = 0; i + BUNDLE <= excerpts.length; i += BUNDLE, b++) {
      const bundle = excerpts.slice(i, i + BUNDLE);
      const t0 = performance.now();
      bundle.map((e) => ({ ...e, content: redact(e.content) }));
      const dt = performance.now() - t0;
      perBundle.push(dt);
      bestPerBundle[b] = Math.min(bestPerBundle[b] ?? Infinity, dt);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 50)); // GC entries arrive asynchronously
  observer.disconnect();
  perExcerpt.sort((a, b) => a - b);
  perBundle.sort((a, b) => a - b);
  let injected = 0;
  let masked = 0;
  for (const e of excerpts) {
    const out = redact(e.content);
    injected += e.pii.length;
    masked += e.pii.filter((p) => !out.includes(p)).length;
  }
  const controlBytes = control.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const controlMasks = control.reduce(
    (n, t) => n + (redact(t).match(/\[REDACTED:[A-Z]+\]/g)?.length ?? 0),
    0,
  );
  return {
    name,
    throughput_mb_s: round(bytes / 1e6 / (elapsed / 1000), 1),
    excerpt_ms: {
      p50: round(percentile(perExcerpt, 50)),
      p95: round(percentile(perExcerpt, 95)),
      p99: round(percentile(perExcerpt, 99)),
    },
    bundle_ms: {
      p50: round(percentile(perBundle, 50)),
      p99: round(percentile(perBundle, 99)),
      max: round(perBundle[perBundle.length - 1]),
      // Each bundle's fastest round, then p99 and max over bundles: the algorithm's cost
      // with transient noise (CPU steal, a GC that happened to land there) filtered out.
      p99_best_of_rounds: round(
        percentile(
          [...bestPerBundle].sort((a, b) => a - b),
          99,
        ),
      ),
      worst_best_of_rounds: round(Math.max(...bestPerBundle)),
    },
    gc_pauses: {
      count: gc.length,
      total_ms: round(
        gc.reduce((a, b) => a + b, 0),
        1,
      ),
      max_ms: round(Math.max(0, ...gc)),
    },
    recall: round(masked / injected),
    masks_per_100kb_wikipedia: round((controlMasks / controlBytes) * 100_000, 1),
  };
}

/** A plain linear pass over the text: the unit the adversarial cost is measured in. */
function plainScan(text: string): number {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    digits += c >= 48 && c <= 57 ? 1 : 0;
  }
  return digits;
}

/** Median of `runs` timings of `fn`. */
function medianMs(fn: () => unknown, runs = 5): number {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/**
 * 64 KB adversarial strings (see libs/redaction/src/adversarial.ts): redaction time over
 * the time of a plain scan of the same text. A super-linear pattern shows as a ratio that
 * grows with size, so the ratio is reported at 16 KB and 64 KB; the worst seed is named.
 */
function adversarialRatios(redactor: Redactor) {
  const worst = { seed: '', ratio_64kb: 0, ratio_16kb: 0, redact_ms_64kb: 0 };
  for (const seed of ADVERSARIAL_SEEDS) {
    const ratio = (bytes: number): [number, number] => {
      const text = adversarial(seed, bytes);
      const scan = Math.max(
        medianMs(() => plainScan(text), 21),
        1e-3,
      );
      const ms = medianMs(() => redactor.redact(text), 3);
      return [ms / scan, ms];
    };
    const [r64, ms64] = ratio(64 * 1024);
    if (r64 > worst.ratio_64kb) {
      const [r16] = ratio(16 * 1024);
      Object.assign(worst, {
        seed: JSON.stringify(seed),
        ratio_64kb: round(r64, 0),
        ratio_16kb: round(r16, 0),
        redact_ms_64kb: round(ms64, 1),
      });
    }
  }
  return { seeds: ADVERSARIAL_SEEDS.length, worst };
}

async function main(): Promise<void> {
  const excerpts = buildExcerpts();
  const control = readFileSync(SQUAD, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text);
  const redactor = new Redactor();
  const ours = await measure('Redactor', (t) => redactor.redact(t).text, excerpts, control);
  const baseline = await measure('naive spec regex list', naiveRedact, excerpts, control);
  const meanBytes =
    excerpts.reduce((n, e) => n + Buffer.byteLength(e.content), 0) / excerpts.length;
  console.log(
    JSON.stringify(
      {
        node: process.version,
        excerpts: excerpts.length,
        rounds: ROUNDS,
        mean_excerpt_bytes: Math.round(meanBytes),
        bundle_size: BUNDLE,
        redactor: ours,
        baseline,
        slowdown_vs_baseline: round(baseline.throughput_mb_s / ours.throughput_mb_s, 1),
        adversarial_vs_plain_scan: adversarialRatios(redactor),
        budget: { bundle_p99_ms_max: 5, met: ours.bundle_ms.p99 < 5 },
      },
      null,
      2,
    ),
  );
}

void main();
