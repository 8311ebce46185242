import { Cooperative } from './cooperative';

/** Runs 30 steps of ~1 ms of synchronous work; returns the step at which `other` ran. */
async function stepWhenOtherRan(cooperative: Cooperative): Promise<number> {
  let step = 0;
  let ranAt = -1;
  setImmediate(() => (ranAt = step));
  for (; step < 30; step++) {
    await cooperative.turn();
    const until = performance.now() + 1;
    while (performance.now() < until) {
      // synchronous work, as validating or redacting one record is
    }
  }
  await new Promise((resolve) => setImmediate(resolve));
  return ranAt;
}

describe('Cooperative', () => {
  it('gives the event loop a turn once a slice of synchronous work is used up', async () => {
    expect(await stepWhenOtherRan(new Cooperative(4))).toBeLessThan(10);
  });

  it('does not yield within a slice', async () => {
    expect(await stepWhenOtherRan(new Cooperative(60_000))).toBe(30);
  });
});
