/** A database a benchmark runs on, with the env that selects it for the app and the server. */
export interface BenchEngine {
  engine: 'pglite' | 'postgres';
  env: Record<string, string>;
}

/**
 * Embedded PGlite always; the Postgres server in `DATABASE_URL` as well when it is set, so
 * one run reports both side by side. `BENCH_ENGINES=postgres` (or `pglite`) runs one only.
 */
export function benchEngines(pgliteEnv: Record<string, string>): BenchEngine[] {
  const url = process.env.DATABASE_URL;
  const engines: BenchEngine[] = [
    // An empty DATABASE_URL means unset: the child server must not inherit the server's URL.
    { engine: 'pglite', env: { ...pgliteEnv, DATABASE_URL: '' } },
    ...(url ? [{ engine: 'postgres' as const, env: { DATABASE_URL: url } }] : []),
  ];
  const only = process.env.BENCH_ENGINES?.split(',').map((e) => e.trim());
  return only ? engines.filter((e) => only.includes(e.engine)) : engines;
}
