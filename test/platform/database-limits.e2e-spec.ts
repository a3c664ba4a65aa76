import { Controller, Get, Module, Query } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Access } from '../../src/platform/auth/access.decorator';
import { raiseLimitsForJob } from '../../src/platform/database/job-limits';
import { createTestApp, type TestApp } from '../helpers/app';

/** Routes that keep the database busy on purpose. */
@Controller('test-database')
class BusyDatabaseController {
  constructor(private readonly dataSource: DataSource) {}

  /** One statement that runs for `ms`. */
  @Get('sleep')
  @Access.public()
  async sleep(@Query('ms') ms: string) {
    await this.dataSource.query('SELECT pg_sleep($1)', [Number(ms) / 1000]);
    return { slept: Number(ms) };
  }

  /** A transaction that holds its connection for `ms`, in statements of 100 ms. */
  @Get('hold')
  @Access.public()
  async hold(@Query('ms') ms: string) {
    await this.dataSource.transaction(async (manager) => {
      for (let held = 0; held < Number(ms); held += 100) {
        await manager.query('SELECT pg_sleep(0.1)');
      }
    });
    return { held: Number(ms) };
  }

  /** The limits within a job's transaction that raised them. */
  @Get('job-settings')
  @Access.public()
  jobSettings() {
    return this.dataSource.transaction(async (manager) => {
      await raiseLimitsForJob(manager);
      const [row] = await manager.query<{ statement: string; lock: string }[]>(
        `SELECT current_setting('statement_timeout') AS statement,
                current_setting('lock_timeout') AS lock`,
      );
      return row;
    });
  }

  /** The limits a connection of the pool starts with. */
  @Get('settings')
  @Access.public()
  async settings() {
    const [row] = await this.dataSource.query<{ statement: string; lock: string }[]>(
      `SELECT current_setting('statement_timeout') AS statement,
              current_setting('lock_timeout') AS lock`,
    );
    return row;
  }
}

@Module({ controllers: [BusyDatabaseController] })
class BusyDatabaseModule {}

/**
 * Bounded waits: no request holds a connection longer than the statement timeout, waits for a
 * lock longer than the lock timeout, or waits for a connection of the pool longer than the
 * acquisition timeout; each answers 503 with Retry-After instead. The statement and lock limits
 * are PostgreSQL's, set on every connection of the pool (not on the embedded database, whose one
 * session serves every connection in turn); the acquisition timeout is the pool's, on both.
 */
describe('database limits', () => {
  const onPostgres = process.env.DATABASE_URL ? it : it.skip;

  (process.env.DATABASE_URL ? describe : describe.skip)('with the defaults', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({}, { modules: [BusyDatabaseModule] });
    });
    afterAll(() => t.close());

    it('sets a 30 s statement timeout and a 5 s lock timeout on every connection', async () => {
      const res = await t.anonymous.get('/v1/test-database/settings').expect(200);
      expect(res.body).toEqual({ statement: '30s', lock: '5s' });
    });
  });

  describe('with short limits', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(
        {
          DATABASE_STATEMENT_TIMEOUT_MS: '300',
          DATABASE_POOL_SIZE: '1',
          DATABASE_POOL_ACQUIRE_TIMEOUT_MS: '200',
        },
        { modules: [BusyDatabaseModule] },
      );
    });
    afterAll(() => t.close());

    onPostgres(
      'cancels a statement that runs past the statement timeout: 503, Retry-After',
      async () => {
        const started = Date.now();
        const res = await t.anonymous.get('/v1/test-database/sleep?ms=3000').expect(503);
        expect(Date.now() - started).toBeLessThan(2000);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body).toEqual({
          error: { code: 503, message: 'The request took too long in the database; try again.' },
        });
        // The connection serves the next request.
        await t.anonymous.get('/v1/test-database/sleep?ms=10').expect(200);
      },
    );

    onPostgres('lets a job raise its limits for its own transaction only', async () => {
      const raised = await t.anonymous.get('/v1/test-database/job-settings').expect(200);
      expect(raised.body).toEqual({ statement: '10min', lock: '1min' });
      // The same connection (the pool has one), back to the pool's limits.
      const after = await t.anonymous.get('/v1/test-database/settings').expect(200);
      expect(after.body).toEqual({ statement: '300ms', lock: '5s' });
    });

    it('answers 503 when no connection of the pool comes free within the acquisition timeout', async () => {
      // The only connection held longer than two acquisitions (the second request's statement
      // never left, so it waits once more), each statement under the statement timeout.
      const holding = t.anonymous.get('/v1/test-database/hold?ms=1500').then((res) => res);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      const res = await t.anonymous.get('/v1/test-database/sleep?ms=1').expect(503);
      const waited = Date.now() - started;
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({
        error: { code: 503, message: 'The database is unavailable; try again.' },
      });
      expect(waited).toBeGreaterThanOrEqual(400);
      expect(waited).toBeLessThan(1200);
      expect((await holding).status).toBe(200);
      await t.anonymous.get('/v1/test-database/sleep?ms=1').expect(200);
    });
  });
});
