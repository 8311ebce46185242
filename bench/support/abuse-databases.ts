import { Client } from 'pg';

/** A fresh database on the test server for one side of bench:abuse (each side its own). */
export async function databaseFor(serverUrl: string, side: string): Promise<string> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  const name = `cb_bench_abuse_${side.replace(/[^a-z0-9_]/gi, '_')}`;
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
