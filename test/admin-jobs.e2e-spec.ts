import { randomUUID } from 'node:crypto';
import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { AuditEvent } from '../src/audit/entities/audit-event.entity';
import { JobsService } from '../src/platform/jobs/jobs.service';
import { createTestApp, TestApp } from './helpers/app';
import { BINDERY_DOCUMENT, expectConforms } from './helpers/conformance';

const QUEUE = 'test-admin-flaky';
const OTHER_QUEUE = 'test-admin-other';
const SECRET = 'ghp_s3cretValue';

/** Jobs that fail while `failing` holds their word, and succeed once it is taken out. */
@Injectable()
class FlakyWorker implements OnModuleInit {
  readonly failing = new Set<string>();
  readonly runs: string[] = [];

  constructor(private readonly jobs: JobsService) {}

  onModuleInit(): void {
    const handler = async ({ word }: { word: string; token: string }) => {
      this.runs.push(word);
      if (this.failing.has(word)) {
        throw new Error(`push to https://git:${SECRET}@git.test/acme/docs.git refused (${word})`);
      }
    };
    this.jobs.define(QUEUE, handler, { pollIntervalMs: 50 });
    this.jobs.define(OTHER_QUEUE, handler, { pollIntervalMs: 50 });
  }
}

@Module({ providers: [FlakyWorker] })
class FlakyModule {}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('admin API: background jobs', () => {
  let t: TestApp;
  let jobs: JobsService;
  let worker: FlakyWorker;
  beforeAll(async () => {
    t = await createTestApp({}, { modules: [FlakyModule] });
    jobs = t.bindery.app.get(JobsService);
    worker = t.bindery.app.get(FlakyWorker);
  });
  afterAll(() => t.close());

  /** A job of `queue` that fails for good (no retries), once it has. */
  async function failedJob(word: string, queue = QUEUE): Promise<string> {
    worker.failing.add(word);
    const id = await jobs.send(queue, { word, token: `bnd_${'t'.repeat(43)}` }, { retryLimit: 0 });
    await waitFor(async () => (await jobs.state(queue, id)) === 'failed');
    return id;
  }

  describe('adminListJobQueues', () => {
    it('counts every queue’s jobs by state', async () => {
      await failedJob(`count-${randomUUID()}`);
      const res = await t.admin.get('/v1/admin/jobs/queues?limit=1000').expect(200);
      expectConforms(res, 'adminListJobQueues', BINDERY_DOCUMENT);
      const names = res.body.items.map((queue: { name: string }) => queue.name);
      expect(names).toEqual([...names].sort());
      expect(names).toEqual(expect.arrayContaining([QUEUE, OTHER_QUEUE, ...jobs.queueNames]));
      const flaky = res.body.items.find((queue: { name: string }) => queue.name === QUEUE);
      expect(flaky).toEqual({
        object: 'job-queue',
        name: QUEUE,
        policy: 'standard',
        counts: {
          created: expect.any(Number),
          retry: expect.any(Number),
          active: expect.any(Number),
          completed: expect.any(Number),
          cancelled: expect.any(Number),
          failed: expect.any(Number),
        },
      });
      expect(flaky.counts.failed).toBeGreaterThanOrEqual(1);
      expect(res.body.count).toBe(res.body.items.length);
    });

    it('pages the queues', async () => {
      const first = await t.admin.get('/v1/admin/jobs/queues?limit=1').expect(200);
      expect(first.body.items).toHaveLength(1);
      const second = await t.admin
        .get(`/v1/admin/jobs/queues?limit=1&page=${first.body.next.page}`)
        .expect(200);
      expect(second.body.items[0].name > first.body.items[0].name).toBe(true);
    });

    it('refuses a bad limit or page with 400, and a user token with 403', async () => {
      for (const query of ['limit=0', 'limit=many', 'page=nonsense']) {
        const res = await t.admin.get(`/v1/admin/jobs/queues?${query}`).expect(400);
        expect(res.body).toEqual({ error: { code: 400, message: expect.any(String) } });
        expectConforms(res, 'adminListJobQueues', BINDERY_DOCUMENT);
      }
      const user = await t.factories.user();
      const res = await user.client.get('/v1/admin/jobs/queues').expect(403);
      expectConforms(res, 'adminListJobQueues', BINDERY_DOCUMENT);
    });
  });

  describe('adminListFailedJobs', () => {
    it('lists failures newest first, with their redacted error and never their data', async () => {
      const older = await failedJob(`older-${randomUUID()}`);
      const newer = await failedJob(`newer-${randomUUID()}`);
      const elsewhere = await failedJob(`elsewhere-${randomUUID()}`, OTHER_QUEUE);

      const res = await t.admin.get(`/v1/admin/jobs/failed?queue=${QUEUE}&limit=1000`).expect(200);
      expectConforms(res, 'adminListFailedJobs', BINDERY_DOCUMENT);
      const ids = res.body.items.map((job: { id: string }) => job.id);
      expect(ids).not.toContain(elsewhere);
      expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
      expect(ids.indexOf(newer)).toBeGreaterThanOrEqual(0);
      const job = res.body.items[ids.indexOf(newer)];
      expect(job).toEqual({
        object: 'job',
        id: newer,
        queue: QUEUE,
        state: 'failed',
        createdAt: expect.any(String),
        startedAt: expect.any(String),
        failedAt: expect.any(String),
        attempts: 1,
        error: expect.stringContaining('https://[REDACTED]@git.test/acme/docs.git refused'),
      });
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('bnd_');

      const all = await t.admin.get('/v1/admin/jobs/failed?limit=1000').expect(200);
      expect(all.body.items.map((each: { id: string }) => each.id)).toEqual(
        expect.arrayContaining([older, newer, elsewhere]),
      );
    });

    it('pages failures by a cursor, without repeating or skipping one', async () => {
      const queue = OTHER_QUEUE;
      const made = [
        await failedJob(`page-a-${randomUUID()}`, queue),
        await failedJob(`page-b-${randomUUID()}`, queue),
        await failedJob(`page-c-${randomUUID()}`, queue),
      ];
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await t.admin
          .get(`/v1/admin/jobs/failed?queue=${queue}&limit=2${page ? `&page=${page}` : ''}`)
          .expect(200);
        expectConforms(res, 'adminListFailedJobs', BINDERY_DOCUMENT);
        seen.push(...res.body.items.map((job: { id: string }) => job.id));
        expect(res.body.count).toBeGreaterThanOrEqual(3);
        page = res.body.next?.page;
      } while (page);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(made));
      expect(seen.indexOf(made[2])).toBeLessThan(seen.indexOf(made[0]));
    });

    it('refuses bad input with 400 and a user token with 403', async () => {
      for (const query of ['queue=', 'limit=1001', 'page=nonsense']) {
        const res = await t.admin.get(`/v1/admin/jobs/failed?${query}`).expect(400);
        expect(res.body).toEqual({ error: { code: 400, message: expect.any(String) } });
        expectConforms(res, 'adminListFailedJobs', BINDERY_DOCUMENT);
      }
      const user = await t.factories.user();
      await user.client.get('/v1/admin/jobs/failed').expect(403);
    });
  });

  describe('adminRetryJob', () => {
    it('runs a failed job again, and refuses a second retry of the completed job with 409', async () => {
      const word = `retry-${randomUUID()}`;
      const id = await failedJob(word);
      worker.failing.delete(word);

      const res = await t.admin.post(`/v1/admin/jobs/${id}/retry`).expect(204);
      expectConforms(res, 'adminRetryJob', BINDERY_DOCUMENT);
      await waitFor(async () => (await jobs.state(QUEUE, id)) === 'completed');
      expect(worker.runs.filter((run) => run === word)).toHaveLength(2);

      const failed = await t.admin.get(`/v1/admin/jobs/failed?queue=${QUEUE}&limit=1000`);
      expect(failed.body.items.map((job: { id: string }) => job.id)).not.toContain(id);

      const again = await t.admin.post(`/v1/admin/jobs/${id}/retry`).expect(409);
      expectConforms(again, 'adminRetryJob', BINDERY_DOCUMENT);
      expect(again.body).toEqual({
        error: { code: 409, message: expect.stringContaining('completed') },
      });

      const events = await t.dataSource
        .getRepository(AuditEvent)
        .findBy({ operationId: 'adminRetryJob', targetId: id });
      expect(events).toEqual([
        expect.objectContaining({ action: 'job.retried', actorId: 'admin', targetType: 'job' }),
      ]);
    });

    it('answers 404 for an unknown job, whatever its id looks like', async () => {
      for (const id of [randomUUID(), 'not-a-job']) {
        const res = await t.admin.post(`/v1/admin/jobs/${id}/retry`).expect(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Job not found.' } });
        expectConforms(res, 'adminRetryJob', BINDERY_DOCUMENT);
      }
    });

    it('answers 403 to a user token and leaves the job failed', async () => {
      const id = await failedJob(`forbidden-${randomUUID()}`);
      const user = await t.factories.user();
      const res = await user.client.post(`/v1/admin/jobs/${id}/retry`).expect(403);
      expectConforms(res, 'adminRetryJob', BINDERY_DOCUMENT);
      expect(await jobs.state(QUEUE, id)).toBe('failed');
    });
  });
});
