/** Stops the cluster that globalSetup started (none when TEST_DATABASE_URL was given). */
export default function teardown(): void {
  (globalThis as { __cbPostgres?: { destroy(): void } }).__cbPostgres?.destroy();
}
