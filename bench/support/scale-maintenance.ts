import { type ScaleGrower } from './scale-grow';
import { customerTurns, ScaleProbe, withStatementWatch } from './scale-probes';
import { startServerProcess } from './server-process';

/** Forget of the heaviest contact and a retention sweep of the oldest 10%, over HTTP/CLI paths. */
export async function measureMaintenance(
  grower: ScaleGrower,
  env: Record<string, string>,
  engine: 'pglite' | 'postgres',
) {
  // The largest history left: rank 0 unless an earlier run forgot it (a maintenance-only re-run).
  const [{ contact_uid: heaviest }] = await grower.db.query<{ contact_uid: string }>(
    `SELECT contact_uid FROM lexical_contact_stats ORDER BY docs DESC, contact_uid LIMIT 1`,
  );
  await grower.release();
  const server = await startServerProcess(env);
  // PGlite: no second session can watch statements (or poll) while the service holds the dir.
  const watch = <T>(work: () => Promise<T>) =>
    withStatementWatch(engine === 'postgres' ? grower.db : undefined, work);
  let forget;
  let purge;
  try {
    forget = await watch(async () => {
      const response = await fetch(`${server.url}/contacts/${heaviest}/history`, {
        method: 'DELETE',
      });
      return { status: response.status, body: await response.json() };
    });
    // A large history answers `pending`: the background purge deletes it meanwhile, while
    // the contact's own calls (which must find nothing) and everyone else's go on.
    const probe = new ScaleProbe(server.url, customerTurns());
    purge = await watch(async () => {
      const during = await probe.context([heaviest], 50, 1);
      while (engine === 'postgres' && (await pendingForgets(grower, heaviest)) > 0) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return { heaviest_context_during_purge: during };
    });
    probe.close();
  } finally {
    await server.stop();
  }
  await grower.reacquire();
  // On PGlite the service stopped mid-purge: the tombstone resumes it at the next boot.
  // Conversation i starts at 2022-01-01 + i × 127 s (scale-corpus): the oldest 10% end here.
  const cutoff = Date.UTC(2022, 0, 1) + Math.floor(grower.conversations * 0.1) * 127_000;
  const retention = await watch(() => grower.sweep(new Date(cutoff)));
  return {
    forget_heaviest: forget,
    background_purge_heaviest: purge,
    retention_10_percent: { cutoff: new Date(cutoff).toISOString(), ...retention },
  };
}

async function pendingForgets(grower: ScaleGrower, contactUid: string): Promise<number> {
  const [row] = await grower.db.query<{ pending: number }>(
    `SELECT count(*)::int AS pending FROM history_tombstones
     WHERE contact_uid = $1 AND purged_at IS NULL`,
    [contactUid],
  );
  return row.pending;
}
