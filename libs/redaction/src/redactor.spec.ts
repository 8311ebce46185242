import type { Detection } from './detectors/detector';
import { ENTITY_TYPES, parseRedactEntities } from './entity-types';
import { parsePhoneRegions } from './phone-regions';
import { Redactor } from './redactor';
import { resolveOverlaps } from './resolve';

/** Texts that exercise every detector; reused by the idempotence and offset checks. */
const SAMPLES = [
  'Card 4111 1111 1111 1111, SSN 536-22-1234, call (415) 555-0134, mail jane@example.com.',
  'IBAN GB82 WEST 1234 5698 7654 32 from 192.168.1.10 and 2001:db8::1.',
  'I live at 742 Evergreen Terrace, Springfield, IL 62704 and my DOB is 03/14/1985.',
  `my card is four one one one one one one one one one one one one one one one and my number is 5 5 5 0 1 9 9`,
  'born at 1600 Pennsylvania Avenue NW, Washington, DC 20500 on 08/04/1961',
  'john dot smith at gmail dot com; PO Box 1234, Austin, TX 78701',
  'Nothing to see: order ABC-12345, $1,234.56, v1.2.3, 2024-03-14T10:22:33Z.',
];

describe('Redactor', () => {
  const sut = new Redactor();

  it('replaces each entity with its typed placeholder', () => {
    const text =
      'Card 4111 1111 1111 1111, SSN 536-22-1234, call (415) 555-0134, mail jane@example.com, ' +
      'IBAN GB82 WEST 1234 5698 7654 32, host 10.0.0.1, at 12 Main St, DOB 03/14/1985.';
    expect(sut.redact(text).text).toBe(
      'Card [REDACTED:CC], SSN [REDACTED:SSN], call [REDACTED:PHONE], mail [REDACTED:EMAIL], ' +
        'IBAN [REDACTED:IBAN], host [REDACTED:IP], at [REDACTED:ADDR], DOB [REDACTED:DOB].',
    );
  });

  it.each(SAMPLES)('reports offsets into the input that rebuild the output: %s', (text) => {
    const result = sut.redact(text);
    let rebuilt = '';
    let at = 0;
    for (const e of result.entities) {
      expect(e.start).toBeGreaterThanOrEqual(at);
      expect(e.end).toBeGreaterThan(e.start);
      rebuilt += text.slice(at, e.start) + `[REDACTED:${tag(e.type)}]`;
      at = e.end;
    }
    expect(rebuilt + text.slice(at)).toBe(result.text);
  });

  it.each(SAMPLES)('is idempotent: %s', (text) => {
    const once = sut.redact(text);
    const twice = sut.redact(once.text);
    expect(twice.text).toBe(once.text);
    expect(twice.entities).toEqual([]);
  });

  it('runs to a fixed point when masking brings a date within reach of its keyword', () => {
    const text = 'born at 1600 Pennsylvania Avenue NW, Washington, DC 20500 on 08/04/1961';
    const result = sut.redact(text);
    expect(result.text).toBe('born at [REDACTED:ADDR] on [REDACTED:DOB]');
    expect(result.entities.map((e) => [e.type, text.slice(e.start, e.end)])).toEqual([
      ['STREET_ADDRESS', '1600 Pennsylvania Avenue NW, Washington, DC 20500'],
      ['DATE_OF_BIRTH', '08/04/1961'],
    ]);
  });

  it('runs to a fixed point when masking unglues a house number from a phone number', () => {
    const text = 'call (415) 555-0134 12 Main St';
    expect(sut.redact(text)).toEqual({
      text: 'call [REDACTED:PHONE] [REDACTED:ADDR]',
      entities: [
        { type: 'PHONE', start: 5, end: 19 },
        { type: 'STREET_ADDRESS', start: 20, end: 30 },
      ],
    });
  });

  it('never detects its own placeholders', () => {
    const text = ENTITY_TYPES.map((t) => `[REDACTED:${tag(t)}]`).join(' born ');
    expect(sut.redact(text)).toEqual({ text, entities: [] });
  });

  it('returns text with nothing to mask unchanged', () => {
    const text =
      'Hi, could you get me a restaurant booking on the 8th please? Table for 2 at 7 pm.';
    expect(sut.redact(text)).toEqual({ text, entities: [] });
    expect(sut.redact('')).toEqual({ text: '', entities: [] });
  });

  describe('overlaps', () => {
    it('prefers the longer span: an email that contains a card number', () => {
      const text = 'write to 4111111111111111@example.com';
      expect(sut.redact(text).text).toBe('write to [REDACTED:EMAIL]');
    });

    it('prefers the longer span: an IBAN whose digits hold a card-like run', () => {
      expect(sut.redact('DE89 3704 0044 0532 0130 00').entities.map((e) => e.type)).toEqual([
        'IBAN',
      ]);
    });

    it('prefers the longer span: an address that contains a ZIP+4', () => {
      expect(sut.redact('12 Main St, Dayton, OH 45402-1234').text).toBe('[REDACTED:ADDR]');
    });

    const d = (type: Detection['type'], start: number, end: number, score: number): Detection => ({
      type,
      start,
      end,
      score,
    });

    it.each<[string, Detection[], Detection[]]>([
      [
        'longest wins over higher confidence',
        [d('EMAIL', 0, 5, 0.99), d('PHONE', 2, 12, 0.5)],
        [d('PHONE', 2, 12, 0.5)],
      ],
      [
        'equal length: higher confidence wins',
        [d('PHONE', 0, 10, 0.75), d('US_SSN', 0, 10, 0.85)],
        [d('US_SSN', 0, 10, 0.85)],
      ],
      [
        'equal length and confidence: type rank wins',
        [d('PHONE', 0, 10, 0.8), d('CREDIT_CARD', 0, 10, 0.8)],
        [d('CREDIT_CARD', 0, 10, 0.8)],
      ],
      [
        'disjoint spans are all kept, in order',
        [d('PHONE', 20, 30, 0.8), d('EMAIL', 0, 10, 0.9)],
        [d('EMAIL', 0, 10, 0.9), d('PHONE', 20, 30, 0.8)],
      ],
      [
        'adjacent spans do not overlap',
        [d('PHONE', 0, 10, 0.8), d('EMAIL', 10, 20, 0.9)],
        [d('PHONE', 0, 10, 0.8), d('EMAIL', 10, 20, 0.9)],
      ],
      ['empty spans are dropped', [d('PHONE', 5, 5, 0.8)], []],
    ])('resolveOverlaps: %s', (_name, input, expected) => {
      expect(resolveOverlaps(input)).toEqual(expected);
      expect(resolveOverlaps([...input].reverse())).toEqual(expected);
    });
  });

  describe('options', () => {
    it('masks only the configured entity types', () => {
      const emailOnly = new Redactor({ entities: ['EMAIL'] });
      const text = 'jane@example.com or 415-555-0134';
      expect(emailOnly.redact(text).text).toBe('[REDACTED:EMAIL] or 415-555-0134');
      expect(emailOnly.entities).toEqual(['EMAIL']);
    });

    it('limits spoken detection to the configured types', () => {
      const phoneOnly = new Redactor({ entities: ['PHONE'] });
      const card = 'four one one one one one one one one one one one one one one one';
      expect(phoneOnly.redact(card).entities.map((e) => e.type)).not.toContain('CREDIT_CARD');
    });

    it('treats an empty entity list as all types, so a blank setting cannot disable redaction', () => {
      expect(new Redactor({ entities: [] }).entities).toEqual([...ENTITY_TYPES]);
    });

    it('rejects an unknown entity type', () => {
      expect(() => new Redactor({ entities: ['PASSPORT' as never] })).toThrow(/PASSPORT/);
    });
  });

  describe('redactBundle', () => {
    const excerpts = [
      { content: 'call 415-555-0134 or 415-555-0199', channel: 'sms', rerank_score: 0.9 },
      { content: 'mail jane@example.com', channel: 'webchat', rerank_score: 0.5 },
      { content: 'nothing here', channel: 'call', rerank_score: 0.1 },
    ];

    it('redacts every excerpt, keeps the other fields and counts per type', () => {
      const result = sut.redactBundle(excerpts);
      expect(result.excerpts).toEqual([
        { content: 'call [REDACTED:PHONE] or [REDACTED:PHONE]', channel: 'sms', rerank_score: 0.9 },
        { content: 'mail [REDACTED:EMAIL]', channel: 'webchat', rerank_score: 0.5 },
        { content: 'nothing here', channel: 'call', rerank_score: 0.1 },
      ]);
      expect(result.counts).toEqual({ PHONE: 2, EMAIL: 1 });
      expect(result.perExcerpt).toBeUndefined();
    });

    it('counts per excerpt when asked, summing to the bundle counts', () => {
      const result = sut.redactBundle(excerpts, true);
      expect(result.perExcerpt).toEqual([{ PHONE: 2 }, { EMAIL: 1 }, {}]);
      expect(result.counts).toEqual({ PHONE: 2, EMAIL: 1 });
    });

    it('returns new objects and does not mutate its input', () => {
      const snapshot = structuredClone(excerpts);
      const result = sut.redactBundle(excerpts);
      expect(excerpts).toEqual(snapshot);
      result.excerpts.forEach((e, i) => expect(e).not.toBe(excerpts[i]));
    });

    it('handles an empty bundle', () => {
      expect(sut.redactBundle([])).toEqual({ excerpts: [], counts: {} });
    });
  });
});

describe('parseRedactEntities', () => {
  it.each<[string | undefined, string[]]>([
    [undefined, [...ENTITY_TYPES]],
    ['', [...ENTITY_TYPES]],
    ['  ', [...ENTITY_TYPES]],
    [',,', [...ENTITY_TYPES]],
    ['EMAIL,PHONE', ['EMAIL', 'PHONE']],
    [' email , phone ', ['EMAIL', 'PHONE']],
    ['CREDIT_CARD,CREDIT_CARD', ['CREDIT_CARD']],
    [
      'US_SSN,IBAN,IP_ADDRESS,STREET_ADDRESS,DATE_OF_BIRTH',
      ['US_SSN', 'IBAN', 'IP_ADDRESS', 'STREET_ADDRESS', 'DATE_OF_BIRTH'],
    ],
  ])('parses %p', (csv, expected) => {
    expect(parseRedactEntities(csv)).toEqual(expected);
  });

  it('names every unknown entry and lists the accepted names', () => {
    expect(() => parseRedactEntities('EMAIL,PASSPORT,SSN')).toThrow(
      /unknown entity type\(s\): PASSPORT, SSN\. Use a comma-separated list of: EMAIL, IBAN, CREDIT_CARD/,
    );
  });
});

function tag(type: (typeof ENTITY_TYPES)[number]): string {
  const tags = {
    CREDIT_CARD: 'CC',
    US_SSN: 'SSN',
    PHONE: 'PHONE',
    EMAIL: 'EMAIL',
    IBAN: 'IBAN',
    IP_ADDRESS: 'IP',
    STREET_ADDRESS: 'ADDR',
    DATE_OF_BIRTH: 'DOB',
  } as const;
  return tags[type];
}

describe('parsePhoneRegions', () => {
  it.each<[string | undefined, string[]]>([
    [undefined, ['US']],
    ['', ['US']],
    ['gb', ['GB']],
    [' US , CA ,US', ['US', 'CA']],
  ])('parses %p', (csv, expected) => {
    expect(parsePhoneRegions(csv)).toEqual(expected);
  });

  it('names every unsupported code', () => {
    expect(() => parsePhoneRegions('US,XX,ZZ')).toThrow(/Unsupported phone region\(s\): XX, ZZ/);
  });
});
