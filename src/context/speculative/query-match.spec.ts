import { coverage, QueryTerms } from './query-match';

describe('QueryTerms', () => {
  it('compares normalised terms: stop words, case and inflections do not count', () => {
    const sut = new QueryTerms('The dining table legs arrived SCRATCHED');
    expect(sut.similarity(new QueryTerms('dining table leg arrived scratched'))).toBe(1);
    expect(sut.similarity(new QueryTerms('dining table'))).toBeCloseTo(2 / 5);
    expect(sut.similarity(new QueryTerms('refund please'))).toBe(0);
  });

  it('matches queries without content terms only when their text is the same', () => {
    expect(new QueryTerms('is it').similarity(new QueryTerms('IS  it'))).toBe(1);
    expect(new QueryTerms('is it').similarity(new QueryTerms('it is'))).toBe(0);
  });

  it('coverage: the share of the query held by a longer text', () => {
    const query = new QueryTerms('what gate code');
    expect(coverage(query, new QueryTerms('my new gate code is 4417'))).toBe(1);
    expect(coverage(new QueryTerms('the'), new QueryTerms('the gate'))).toBe(0);
  });
});
