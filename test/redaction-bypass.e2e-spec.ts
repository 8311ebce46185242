import { HOSTILE_VALUES } from '../libs/redaction/src/hostile-values';
import {
  HOSTILE_CLASSES,
  hostileVariant,
  leaks,
  type Variant,
} from '../libs/redaction/src/hostile-variants';
import { normalize } from '../libs/redaction/src/normalize';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { seededRandom } from './support/seeded';

/**
 * The attacker's side of redaction, against the running service: every hostile class of
 * hostile-variants.ts (markup, encodings, look-alike letters and digits, spoken and
 * bracketed "@", separators, URIs) on every value it fits, seeded (TEST_SEED replays). Sent
 * through POST /redact, and stored as a customer's history that comes back in /search and
 * /context excerpts. Nothing of a value may be readable in any answer.
 */
interface RedactBody {
  text: string;
  entities: Array<{ type: string; start: number; end: number }>;
}
interface SearchBody {
  hits: Array<{ content: string }>;
}
interface ContextBody {
  historical_excerpts: Array<{ content: string }>;
}

const { random } = seededRandom('redaction bypass e2e');
/** One variant per class and value it fits. */
const VARIANTS: Array<{ label: string; valueIndex: number; variant: Variant }> =
  HOSTILE_CLASSES.flatMap((cls) =>
    HOSTILE_VALUES.flatMap((value, valueIndex) =>
      cls.applies(value)
        ? [
            {
              label: `${cls.name} / ${value.name}`,
              valueIndex,
              variant: hostileVariant(cls, value, random),
            },
          ]
        : [],
    ),
  );
/** Words of the e-mail and IBAN values that must never come back readable. */
const VALUE_WORDS = /alice|jones|example|DE89/i;
const PLACEHOLDER = /\[REDACTED:[A-Z_]+\]/g;

/**
 * What is still readable of any value in an answer: its digits and words as a reader sees
 * them, after the masks are removed and the rest is decoded and folded the way the redactor
 * reads it, its letters also read joined (so "&#52;" or "𝟒" left in clear counts as the digit it shows). The sentences
 * around the values hold no digits, so any digit left is a leak.
 */
function readable(content: string): string[] {
  const rest = content.replace(PLACEHOLDER, ' ');
  const shown = normalize(rest)?.text ?? rest;
  // Letters joined too: "a l i c e" spelled out reads "alice".
  const joined = (line: string): string => line.replace(/[^A-Za-z0-9]+/g, '');
  return shown
    .split('\n')
    .filter((line) => /\d/.test(line) || VALUE_WORDS.test(line) || VALUE_WORDS.test(joined(line)));
}

describe('redaction bypasses (e2e)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await bootTestApp();
    // One contact per value, one message per variant, so each contact's history fits a search.
    const records = VARIANTS.map(({ variant, valueIndex }, i) => ({
      conversation_uid: `conv_bypass_${valueIndex}`,
      contact_uid: `ctc_bypass_${valueIndex}`,
      channel: 'sms',
      occurred_at: new Date(Date.UTC(2026, 4, 1, 10, 0, i)).toISOString(),
      sender: 'customer',
      text: variant.text,
    }));
    const res = await postJson<{ inserted: number }>(`${sut.url}/ingest/conversations`, records);
    expect(res.status).toBe(200);
  });
  afterAll(() => sut.close());

  it.each(VARIANTS.map((v) => [v.label, v.variant] as const))(
    'POST /redact masks every letter and digit of %s',
    async (_label, variant) => {
      const res = await postJson<RedactBody>(`${sut.url}/redact`, { text: variant.text });
      expect(res.status).toBe(200);
      expect({ text: variant.text, leaked: leaks(variant, res.body.entities) }).toEqual({
        text: variant.text,
        leaked: [],
      });
    },
  );

  it.each(HOSTILE_VALUES.map((v, i) => [v.name, i] as const))(
    'stored history of the %s comes back masked from /search and /context',
    async (_name, valueIndex) => {
      const contact = `ctc_bypass_${valueIndex}`;
      const query = HOSTILE_VALUES[valueIndex].sentence.replace('{}', '');
      const search = await postJson<SearchBody>(`${sut.url}/search`, {
        query,
        contact_uid: contact,
        top_k: 100,
      });
      expect(search.status).toBe(200);
      expect(search.body.hits.length).toBeGreaterThan(0);
      const context = await postJson<ContextBody>(`${sut.url}/context`, {
        transcript: query,
        contact_uid: contact,
      });
      expect(context.status).toBe(200);
      const contents = [
        ...search.body.hits.map((h) => h.content),
        ...context.body.historical_excerpts.map((e) => e.content),
      ];
      expect(contents.join('\n')).toContain('[REDACTED:');
      expect(contents.flatMap(readable)).toEqual([]);
    },
  );
});
