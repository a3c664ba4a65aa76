import { Pool } from 'pg';
import { EmbeddedDatabase } from './embedded-database';

/** Many pool connections on PGlite's one session, the way the app and the job queue use it. */
describe('EmbeddedSession', () => {
  let database: EmbeddedDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await EmbeddedDatabase.start();
    pool = new Pool({ connectionString: database.url, max: 10 });
    await pool.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
    await pool.query('INSERT INTO counters VALUES (1, 0), (2, 0)');
    // Starting PGlite takes seconds, and more while CI's other test workers share the cores.
  }, 120_000);

  afterAll(async () => {
    await pool.end();
    await database.stop();
  });

  it('keeps concurrent extended-protocol queries apart, failing ones included', async () => {
    const answers = await Promise.all(
      Array.from({ length: 210 }, async (_, i) => {
        if (i % 7 === 0) {
          // An error makes the backend skip to the next Sync: someone else's, if batches mixed.
          const failed = await pool.query('SELECT 1 / $1::int', [0]).catch((error: Error) => error);
          return failed instanceof Error ? -1 : 0;
        }
        const { rows } =
          i % 2 === 0
            ? await pool.query<{ v: number }>('SELECT $1::int AS v', [i])
            : await pool.query<{ v: number }>('SELECT $1::int + $2::int AS v', [i, 0]);
        return rows[0].v;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 210 }, (_, i) => (i % 7 === 0 ? -1 : i)));
  });

  it('runs concurrent transactions one after another, each whole', async () => {
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('UPDATE counters SET n = n + $1 WHERE id = $2', [1, 1]);
          if (i % 5 === 0) {
            await client.query('UPDATE counters SET n = n + $1 WHERE id = $2', [100, 1]);
            await client.query('SELECT 1 / $1::int', [0]).catch(() => undefined);
            await client.query('ROLLBACK');
            return;
          }
          const { rows } = await client.query<{ n: number }>(
            'SELECT n FROM counters WHERE id = $1',
            [1],
          );
          expect(rows[0].n).toBeGreaterThan(0);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }),
    );
    const { rows } = await pool.query<{ n: number }>('SELECT n FROM counters WHERE id = 1');
    expect(rows[0].n).toBe(16);
  });

  it('rolls back the transaction of a connection that closes inside it', async () => {
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query('UPDATE counters SET n = 999 WHERE id = $1', [2]);
    // Destroying the client drops its socket; the server must roll back and free the session.
    client.release(true);
    const { rows } = await pool.query<{ n: number }>('SELECT n FROM counters WHERE id = $1', [2]);
    expect(rows[0].n).toBe(0);
  });
});
