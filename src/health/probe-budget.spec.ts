import { ProbeBudget, ProbeRateLimitedError, READY_PROBES_PER_SECOND } from './probe-budget';

describe('ProbeBudget', () => {
  let now: number;
  let sut: ProbeBudget;

  beforeEach(() => {
    now = 0;
    sut = new ProbeBudget(READY_PROBES_PER_SECOND, () => now);
  });

  it('lets an address probe its share each second, then refuses it until the next', () => {
    for (let i = 0; i < READY_PROBES_PER_SECOND; i++) {
      expect(sut.take('10.0.0.1')).toBe(true);
    }
    expect(sut.take('10.0.0.1')).toBe(false);
    expect(sut.take('10.0.0.2')).toBe(true); // another address keeps its own share
    now += 1000;
    expect(sut.take('10.0.0.1')).toBe(true);
  });

  it('counts an IPv6 client by its /64, so rotating source addresses in it gets no fresh share', () => {
    for (let i = 0; i < READY_PROBES_PER_SECOND; i++) {
      expect(sut.take(`2001:db8:1:2::${(i + 1).toString(16)}`)).toBe(true);
    }
    expect(sut.take('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(false);
    expect(sut.take('2001:db8:1:3::1')).toBe(true); // the next /64 is another client
  });

  it('forgets the addresses of past windows, so hostile address churn cannot grow it', () => {
    for (let i = 0; i < 10_000; i++) {
      sut.take(`10.0.${i >> 8}.${i & 255}`);
    }
    expect(sut.size).toBe(10_000);
    now += 1000;
    sut.take('10.9.9.9');
    expect(sut.size).toBe(1);
  });

  it('refuses with 429 probe_rate_limited and a Retry-After', () => {
    expect(new ProbeRateLimitedError()).toMatchObject({
      code: 'probe_rate_limited',
      httpStatus: 429,
      details: { retry_after_s: 1 },
    });
  });
});
