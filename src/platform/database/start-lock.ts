import { Client } from 'pg';

/** Name of the advisory lock that processes starting on one database take in turn. */
const START_LOCK = 'bindery:start';

/**
 * Runs `work` while this process holds the database's start lock (a session advisory lock, on a
 * connection of its own), waiting for any other process that holds it. Processes that start
 * together on one database (replicas of a deployment, an API process and a worker) so take
 * turns through what PostgreSQL cannot run side by side: the migrations (two processes would
 * both apply the pending ones) and pg-boss's creation of the queues (two new queues at once
 * deadlock on its queue table). A process that dies holding it releases it with its connection.
 */
export async function whileHoldingStartLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  // A connection lost meanwhile only ends the turn early: its query fails, or nothing is left.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [START_LOCK]);
    try {
      return await work();
    } finally {
      await client
        .query('SELECT pg_advisory_unlock(hashtext($1))', [START_LOCK])
        .catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
