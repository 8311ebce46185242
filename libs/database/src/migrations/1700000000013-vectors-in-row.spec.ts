import { type SqlExecutor } from '../interfaces/sql-client.interface';
import { vectorsInRow } from './1700000000013-vectors-in-row';

/** Records the step's SQL; every table answers the bounded count with `rows`. */
function recordingExecutor(rows: number): { tx: SqlExecutor; scripts: string[] } {
  const scripts: string[] = [];
  const tx: SqlExecutor = {
    query: <T>() => Promise.resolve([{ rows }] as T[]),
    execute: () => Promise.resolve(0),
    exec: (script: string) => {
      scripts.push(script);
      return Promise.resolve();
    },
  };
  return { tx, scripts };
}

const rewrites = (scripts: string[]) => scripts.filter((s) => /\bCLUSTER\b/.test(s));

describe('VectorsInRow1700000000013', () => {
  it('rewrites a small table under a lifted, then restored, statement timeout', async () => {
    const { tx, scripts } = recordingExecutor(16_000);
    await vectorsInRow.up(tx);
    expect(rewrites(scripts)).toHaveLength(3);
    for (const script of rewrites(scripts)) {
      expect(script).toMatch(
        /statement_timeout = 0;[\s\S]*CLUSTER (\w+) USING \1_pkey;[\s\S]*SET WITHOUT CLUSTER;[\s\S]*statement_timeout = DEFAULT/,
      );
    }
  });

  it('leaves a larger table to the operator: storage changes, no rewrite', async () => {
    const { tx, scripts } = recordingExecutor(16_001);
    await vectorsInRow.up(tx);
    expect(rewrites(scripts)).toEqual([]);
    expect(scripts.join('\n').match(/SET STORAGE MAIN/g)).toHaveLength(3);
  });
});
