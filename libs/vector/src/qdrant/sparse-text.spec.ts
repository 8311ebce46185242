import { encodeDocument, encodeQuery, stem, termIndex, terms } from './sparse-text';

describe('sparse text encoding (Qdrant lexical list)', () => {
  it('merges inflections the way Porter step 1 does', () => {
    const cases: Array<[string, string]> = [
      ['refunds', 'refund'],
      ['refunded', 'refund'],
      ['refunding', 'refund'],
      ['leaking', 'leak'],
      ['caresses', 'caress'],
      ['ponies', 'poni'],
      ['deliveries', 'deliveri'],
      ['delivery', 'deliveri'],
      ['hopping', 'hop'],
      ['filing', 'file'],
      ['agreed', 'agree'],
      ['agree', 'agree'],
      ['cancelled', 'cancel'],
      ['machines', 'machine'],
      ['12345', '12345'],
    ];
    expect(cases.map(([word]) => stem(word))).toEqual(cases.map(([, expected]) => expected));
  });

  it('drops English stop words, folds case and accents, keeps hyphenated ids whole and split', () => {
    expect(terms('The Café is NOT open; order ABC-12345 please')).toEqual([
      'cafe',
      'open',
      'order',
      'abc-12345',
      'abc',
      '12345',
      'please',
    ]);
    expect(terms('the and of it')).toEqual([]);
  });

  it('weights repeats with saturation and shorter documents higher (BM25 tf part)', () => {
    const weight = (text: string, term: string) => {
      const v = encodeDocument(text);
      return v.values[v.indices.indexOf(termIndex(term))];
    };
    const once = weight('refund requested today', 'refund');
    const twice = weight('refund refund requested today', 'refund');
    expect(twice).toBeGreaterThan(once);
    expect(twice).toBeLessThan(2 * once);
    const long = weight(`refund ${'filler '.repeat(60)}`, 'refund');
    expect(long).toBeLessThan(once);
  });

  it('encodes a query as distinct terms with unit weights, indices sorted and unique', () => {
    const q = encodeQuery('Refund? refunds, REFUNDED and a delivery');
    expect(q.values).toEqual([1, 1]);
    expect(q.indices).toEqual([termIndex('refund'), termIndex('deliveri')].sort((a, b) => a - b));
    expect(encodeQuery('the of and')).toEqual({ indices: [], values: [] });
    expect(termIndex('refund')).toBe(termIndex('refund'));
    expect(termIndex('refund')).toBeLessThan(2 ** 32);
  });
});
