import { type SqlExecutor } from '../interfaces/sql-client.interface';
import { narrowPostingCounts } from './1700000000023-narrow-posting-counts';

/**
 * Records the step's SQL. Every table answers the bounded count with `rows`; the rewrite of
 * the tables in `refuse` throws `error` (as Postgres does when `lock_timeout` passes).
 */
function recordingExecutor(
  rows: number,
  refuse: string[] = [],
  error: { code: string } = { code: '55P03' },
): { tx: SqlExecutor; scripts: string[] } {
  const scripts: string[] = [];
  const tx: SqlExecutor = {
    query: <T>() => Promise.resolve([{ rows }] as T[]),
    execute: () => Promise.resolve(0),
    exec: (script: string) => {
      scripts.push(script.replace(/\s+/g, ' ').trim());
      const table = /ALTER TABLE (\w+)/.exec(script)?.[1];
      return table && refuse.includes(table)
        ? Promise.reject(Object.assign(new Error('lock timeout'), error))
        : Promise.resolve();
    },
  };
  return { tx, scripts };
}

const rewrites = (scripts: string[]) => scripts.filter((s) => s.includes('ALTER TABLE'));

describe('NarrowPostingCounts1700000000023', () => {
  it("bounds each rewrite's wait for its table's lock, under a savepoint", async () => {
    const { tx, scripts } = recordingExecutor(1000);
    await narrowPostingCounts.up(tx);
    expect(rewrites(scripts)).toHaveLength(3);
    for (const script of rewrites(scripts)) {
      // A wait without a bound queues every read of the postings behind it (statement
      // timeout is lifted for the rewrite itself).
      expect(script).toMatch(
        /lock_timeout = '\d+s'; SET LOCAL statement_timeout = 0; ALTER TABLE \w+ ALTER COLUMN tf TYPE smallint/,
      );
      expect(script).toMatch(/statement_timeout = DEFAULT; SET LOCAL lock_timeout = DEFAULT;$/);
    }
    expect(scripts.filter((s) => s === 'SAVEPOINT narrow_postings')).toHaveLength(3);
    expect(scripts.filter((s) => s === 'RELEASE SAVEPOINT narrow_postings')).toHaveLength(3);
  });

  it('leaves a table whose lock is busy at 4-byte counts and narrows the others', async () => {
    const { tx, scripts } = recordingExecutor(1000, ['podium_conversations_terms']);
    await expect(narrowPostingCounts.up(tx)).resolves.toBeUndefined();
    expect(scripts.filter((s) => s === 'ROLLBACK TO SAVEPOINT narrow_postings')).toHaveLength(1);
    expect(rewrites(scripts).map((s) => /ALTER TABLE (\w+)/.exec(s)?.[1])).toEqual([
      'podium_conversations_terms',
      'kb_source_chunks_terms',
      'kb_topic_summaries_terms',
    ]);
  });

  it('fails the step on any other error', async () => {
    const { tx } = recordingExecutor(1000, ['kb_source_chunks_terms'], { code: '53100' });
    await expect(narrowPostingCounts.up(tx)).rejects.toMatchObject({ code: '53100' });
  });

  it('rewrites no table over 500k postings (the operator narrows it in a maintenance window)', async () => {
    const { tx, scripts } = recordingExecutor(500_001);
    await narrowPostingCounts.up(tx);
    expect(scripts).toEqual([]);
  });
});
