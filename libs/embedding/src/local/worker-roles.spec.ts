import { pickWorker, roleOf, type WorkerRole } from './worker-roles';

describe('embedding worker roles', () => {
  const roles: Record<string, WorkerRole> = { f: 'foreground', b1: 'background', b2: 'background' };
  const role = (w: string) => roles[w];

  it('one foreground worker, the rest background; a single worker is foreground', () => {
    expect([0, 1, 2].map((i) => roleOf(i, 3))).toEqual(['foreground', 'background', 'background']);
    expect(roleOf(0, 1)).toBe('foreground');
  });

  it('sends /context batches to the foreground worker and other lanes to background ones', () => {
    expect(pickWorker(['b1', 'f', 'b2'], 'context', role)).toBe('f');
    expect(pickWorker(['f', 'b1'], 'query', role)).toBe('b1');
    expect(pickWorker(['f', 'b2'], 'bulk', role)).toBe('b2');
  });

  it('sends other live routes to the foreground worker while /context is quiet', () => {
    // At nice 10 a lone /search waited behind every other runnable thread (issue 37 c1 miss).
    expect(pickWorker(['b1', 'f'], 'query', role, false)).toBe('f');
    expect(pickWorker(['b1', 'f'], 'query', role, true)).toBe('b1');
    expect(pickWorker(['b1', 'f'], 'bulk', role, false)).toBe('b1');
    expect(pickWorker(['b1'], 'query', role, false)).toBe('b1');
  });

  it('takes whatever is idle when the preferred kind is busy', () => {
    expect(pickWorker(['b1'], 'context', role)).toBe('b1');
    expect(pickWorker(['f'], 'query', role)).toBe('f');
    expect(pickWorker([], 'query', role)).toBeUndefined();
  });
});
