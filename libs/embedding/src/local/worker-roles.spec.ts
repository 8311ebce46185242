import { pickWorker, queryMayRunForeground, roleOf, type WorkerRole } from './worker-roles';

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

  it('sends a query batch to the foreground worker when allowed', () => {
    // At nice 10 a lone /search waited behind every other runnable thread (issue 37 c1 miss).
    expect(pickWorker(['b1', 'f'], 'query', role, true)).toBe('f');
    expect(pickWorker(['b1', 'f'], 'query', role, false)).toBe('b1');
    expect(pickWorker(['b1', 'f'], 'bulk', role, true)).toBe('b1');
    expect(pickWorker(['b1'], 'query', role, true)).toBe('b1');
  });

  it('lets a query run foreground while /context is quiet, or when it is a lone query', () => {
    const lone = { contextLive: true, batch: 1, queued: 0, running: 0 };
    expect(queryMayRunForeground({ ...lone, contextLive: false, batch: 8, queued: 50 })).toBe(true);
    expect(queryMayRunForeground(lone)).toBe(true);
    // A flood (or a burst) while /context calls stays on background workers.
    expect(queryMayRunForeground({ ...lone, batch: 2 })).toBe(false);
    expect(queryMayRunForeground({ ...lone, queued: 1 })).toBe(false);
    expect(queryMayRunForeground({ ...lone, running: 1 })).toBe(false);
  });

  it('takes whatever is idle when the preferred kind is busy', () => {
    expect(pickWorker(['b1'], 'context', role)).toBe('b1');
    expect(pickWorker(['f'], 'query', role)).toBe('f');
    expect(pickWorker([], 'query', role)).toBeUndefined();
  });
});
