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

  it('a search serves a final only when it searched every term of it, and not many more', () => {
    const searched = new QueryTerms('what is the phone number of the dentist');
    expect(new QueryTerms('phone number of the dentist please').servedBy(searched, 0.6)).toBe(false);
    expect(new QueryTerms('the phone number of the dentist').servedBy(searched, 0.6)).toBe(true);
    // Every term searched, but the search was about much more: not this query's pool.
    expect(new QueryTerms('dentist').servedBy(searched, 0.6)).toBe(false);
  });

  it('coverage: the share of the query held by a longer text', () => {
    const query = new QueryTerms('what gate code');
    expect(coverage(query, new QueryTerms('my new gate code is 4417'))).toBe(1);
    expect(coverage(new QueryTerms('the'), new QueryTerms('the gate'))).toBe(0);
  });
});
