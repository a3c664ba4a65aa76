import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { JobsService } from '../../src/platform/jobs/jobs.service';
import { createTestApp, TestApp } from '../helpers/app';

@Injectable()
class EchoWorker implements OnModuleInit {
  readonly seen: string[] = [];
  /** Jobs of `test-fast` at work now, and the most at once. */
  running = 0;
  mostAtOnce = 0;
  readonly startedAt = new Map<string, number>();
  coalescedRuns = 0;
  /** When each run of the paced coalescing queue started and ended. */
  pacedRuns: { start: number; end: number }[] = [];
  scheduledRuns = 0;

  constructor(private readonly jobs: JobsService) {}

  onModuleInit(): void {
    this.jobs.define<{ word: string }>('test-echo', async ({ word }) => {
      if (word === 'fail') throw new Error('refused on purpose');
      if (word === 'slow') {
        this.seen.push('slow started');
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      this.seen.push(word);
    });
    // One waiting job per key: while one waits, sending the same key again adds nothing.
    this.jobs.define<{ word: string }>(
      'test-short',
      async ({ word }) => {
        this.seen.push(`short ${word}`);
      },
      { policy: 'short' },
    );
    // Asked every 50 ms, three at once.
    this.jobs.define<{ word: string }>(
      'test-fast',
      async ({ word }) => {
        this.startedAt.set(word, Date.now());
        this.running += 1;
        this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
        await new Promise((resolve) => setTimeout(resolve, 300));
        this.running -= 1;
        this.seen.push(`fast ${word}`);
      },
      { pollIntervalMs: 50, concurrency: 3 },
    );
    // Jobs that all ask for the same work, done once for those waiting together.
    this.jobs.define(
      'test-coalesced',
      async () => {
        this.coalescedRuns += 1;
      },
      { coalesce: 10 },
    );
    this.jobs.define(
      'test-coalesced-paced',
      async () => {
        const start = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 300));
        this.pacedRuns.push({ start, end: Date.now() });
      },
      { coalesce: 10, pollIntervalMs: 1_000 },
    );
    this.jobs.define(
      'test-scheduled',
      async () => {
        this.scheduledRuns += 1;
      },
      { pollIntervalMs: 50 },
    );
  }
}

@Module({ providers: [EchoWorker] })
class EchoModule {}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('background jobs (pg-boss)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { modules: [EchoModule] });
  });
  afterAll(() => t.close());

  it('works a queued job in the API process and records it completed', async () => {
    const jobs = t.bindery.app.get(JobsService);
    const id = await jobs.send('test-echo', { word: 'hello' });
    await waitFor(async () => (await jobs.state('test-echo', id)) === 'completed');
    expect(t.bindery.app.get(EchoWorker).seen).toContain('hello');
  });

  it('records a failing job as retrying or failed, not lost', async () => {
    const jobs = t.bindery.app.get(JobsService);
    const id = await jobs.send('test-echo', { word: 'fail' }, { retryLimit: 0 });
    await waitFor(async () => (await jobs.state('test-echo', id)) === 'failed');
  });

  it('queues a job sent in a transaction only if the transaction commits', async () => {
    const jobs = t.bindery.app.get(JobsService);
    await expect(
      t.dataSource.transaction(async (manager) => {
        await jobs.send('test-echo', { word: 'rolled back' }, { manager });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const id = await t.dataSource.transaction((manager) =>
      jobs.send('test-echo', { word: 'committed' }, { manager }),
    );
    await waitFor(async () => (await jobs.state('test-echo', id)) === 'completed');
    const seen = t.bindery.app.get(EchoWorker).seen;
    expect(seen).toContain('committed');
    expect(seen).not.toContain('rolled back');
  });

  it('answers null for a job its queue already holds, waiting, under the same key', async () => {
    const jobs = t.bindery.app.get(JobsService);
    const later = { singletonKey: 'k', startAfter: 2 };
    const first = await jobs.sendUnlessQueued('test-short', { word: 'first' }, later);
    expect(first).toEqual(expect.any(String));
    expect(await jobs.sendUnlessQueued('test-short', { word: 'again' }, later)).toBeNull();
    await expect(jobs.send('test-short', { word: 'again' }, later)).rejects.toThrow(/singleton/);
    expect(
      await jobs.sendUnlessQueued('test-short', { word: 'other' }, { singletonKey: 'o' }),
    ).toEqual(expect.any(String));
    await waitFor(async () => (await jobs.state('test-short', first as string)) === 'completed');
    expect(t.bindery.app.get(EchoWorker).seen.filter((w) => w.startsWith('short '))).toEqual([
      'short other',
      'short first',
    ]);
  });

  it('works a queue with its own poll interval and several jobs at once', async () => {
    const jobs = t.bindery.app.get(JobsService);
    const worker = t.bindery.app.get(EchoWorker);
    // The queue is idle: a job sent now starts within a poll interval or so, not a second.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sentAt = Date.now();
    const first = await jobs.send('test-fast', { word: 'a' });
    await waitFor(async () => (await jobs.state('test-fast', first)) === 'completed');
    expect(worker.startedAt.get('a')! - sentAt).toBeLessThan(400);

    const ids = await Promise.all(
      ['b', 'c', 'd', 'e'].map((word) => jobs.send('test-fast', { word })),
    );
    await waitFor(async () =>
      (await Promise.all(ids.map((id) => jobs.state('test-fast', id)))).every(
        (state) => state === 'completed',
      ),
    );
    expect(worker.mostAtOnce).toBe(3);
    expect(worker.seen.filter((word) => word.startsWith('fast ')).sort()).toEqual([
      'fast a',
      'fast b',
      'fast c',
      'fast d',
      'fast e',
    ]);
  });

  it('works jobs of a coalescing queue waiting together with one run of the handler', async () => {
    const jobs = t.bindery.app.get(JobsService);
    const worker = t.bindery.app.get(EchoWorker);
    const ids = await t.dataSource.transaction(async (manager) => {
      const sent: string[] = [];
      for (let i = 0; i < 5; i++) sent.push(await jobs.send('test-coalesced', {}, { manager }));
      return sent;
    });
    await waitFor(async () =>
      (await Promise.all(ids.map((id) => jobs.state('test-coalesced', id)))).every(
        (state) => state === 'completed',
      ),
    );
    expect(worker.coalescedRuns).toBe(1);
  });

  it('waits the poll interval after a coalesced run, so that jobs arriving meanwhile run together', async () => {
    const jobs = t.bindery.app.get(JobsService);
    const worker = t.bindery.app.get(EchoWorker);
    const first = await jobs.send('test-coalesced-paced', {});
    // Sent while the first run works (it takes 300 ms): waiting when that run ends.
    await waitFor(async () => (await jobs.state('test-coalesced-paced', first)) === 'active');
    const later = [
      await jobs.send('test-coalesced-paced', {}),
      await jobs.send('test-coalesced-paced', {}),
    ];
    await waitFor(async () =>
      (await Promise.all(later.map((id) => jobs.state('test-coalesced-paced', id)))).every(
        (state) => state === 'completed',
      ),
    );
    expect(worker.pacedRuns).toHaveLength(2);
    const [run1, run2] = worker.pacedRuns;
    expect(run2.start - run1.end).toBeGreaterThanOrEqual(900);
  });

  it('runs a scheduled job once for each of its times, however many processes send it', async () => {
    const jobs = t.bindery.app.get(JobsService);
    const worker = t.bindery.app.get(EchoWorker);
    const due = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    // Two processes sending the same time's job (the same service twice: the key is in the
    // database), then the next time's.
    await jobs.sendScheduled('test-scheduled', due);
    await jobs.sendScheduled('test-scheduled', due);
    await jobs.sendScheduled('test-scheduled', new Date(due.getTime() + 60_000));
    await waitFor(async () => worker.scheduledRuns >= 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(worker.scheduledRuns).toBe(2);
  });

  it('refuses to queue on an undefined queue', async () => {
    await expect(t.bindery.app.get(JobsService).send('no-such-queue', {})).rejects.toThrow(
      /Unknown queue/,
    );
  });
});

describe('background jobs at shutdown', () => {
  it('lets a job at work end before the application closes', async () => {
    const t = await createTestApp({}, { modules: [EchoModule] });
    const seen = t.bindery.app.get(EchoWorker).seen;
    await t.bindery.app.get(JobsService).send('test-echo', { word: 'slow' });
    await waitFor(() => Promise.resolve(seen.includes('slow started')));
    await t.close();
    expect(seen).toEqual(['slow started', 'slow']);
  });
});
