import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { loadConfig } from '../config/app-config';
import type { JobsService } from '../jobs/jobs.service';
import { OutboundHttpError, type OutboundHttp, type OutboundRequestInit } from '../outbound-http';
import { revalidationSignature } from './revalidation-signature';
import {
  COALESCE_SECONDS,
  REVALIDATION_QUEUE,
  RETRY_LIMIT,
  Revalidation,
} from './revalidation.service';

interface Sent {
  name: string;
  data: unknown;
  options: Record<string, unknown>;
}

/** A Revalidation on fakes: the queue records what is sent, the renderer answers `answer`. */
function setUp(
  settings: Record<string, string> = {},
  answer: (url: string, init: OutboundRequestInit) => Promise<number> = async () => 200,
) {
  const sent: Sent[] = [];
  const defined: { name: string; options: unknown }[] = [];
  const requests: { url: string; init: OutboundRequestInit }[] = [];
  let sendFailure: Error | undefined;
  const jobs = {
    define: (name: string, _handler: unknown, options: unknown) => defined.push({ name, options }),
    sendUnlessQueued: async (name: string, data: unknown, options: Record<string, unknown>) => {
      if (sendFailure) throw sendFailure;
      sent.push({ name, data, options });
      return 'job-id';
    },
  } as unknown as JobsService;
  const http = {
    fetch: async (url: string, init: OutboundRequestInit) => {
      requests.push({ url, init });
      return { status: await answer(url, init), headers: {}, body: Buffer.alloc(0), url };
    },
  } as unknown as OutboundHttp;
  const revalidation = new Revalidation(jobs, loadConfig(settings), http);
  return {
    revalidation,
    sent,
    defined,
    requests,
    failSends: (error: Error) => (sendFailure = error),
  };
}

const ON = { RENDERER_URL: 'http://10.0.0.7:3000/' };
const firstAttempt = { retryCount: 0, retryLimit: RETRY_LIMIT };
const lastAttempt = { retryCount: RETRY_LIMIT, retryLimit: RETRY_LIMIT };
const inTransaction = { queryRunner: { isTransactionActive: true } } as unknown as EntityManager;

describe('Revalidation', () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  describe('queueing', () => {
    it('defines its queue with one waiting job per tag set', () => {
      const { revalidation, defined } = setUp();
      revalidation.onModuleInit();
      expect(defined).toEqual([
        { name: REVALIDATION_QUEUE, options: expect.objectContaining({ policy: 'short' }) },
      ]);
    });

    it('queues nothing without RENDERER_URL', async () => {
      const { revalidation, sent } = setUp();
      expect(revalidation.enabled).toBe(false);
      await revalidation.site('s1');
      await revalidation.spaces(['a']);
      expect(sent).toEqual([]);
    });

    it('queues the tags, sorted and once each, keyed by the set, to wait and be retried', async () => {
      const { revalidation, sent } = setUp(ON);
      await revalidation.tags(['space:b', 'site:s', 'space:b']);
      expect(sent).toEqual([
        {
          name: REVALIDATION_QUEUE,
          data: { tags: ['site:s', 'space:b'] },
          options: expect.objectContaining({
            singletonKey: 'site:s,space:b',
            startAfter: COALESCE_SECONDS,
            retryLimit: RETRY_LIMIT,
            retryBackoff: true,
          }),
        },
      ]);
    });

    it('names sites and spaces by the tags the renderer gives them', async () => {
      const { revalidation, sent } = setUp(ON);
      await revalidation.site('s1');
      await revalidation.spaces(['b', 'a']);
      await revalidation.spaces([]);
      expect(sent.map((s) => s.data)).toEqual([
        { tags: ['site:s1'] },
        { tags: ['space:a', 'space:b'] },
      ]);
    });

    it("queues in the caller's transaction when given one", async () => {
      const { revalidation, sent } = setUp(ON);
      await revalidation.site('s1', inTransaction);
      expect(sent[0].options.manager).toBe(inTransaction);
    });

    it('logs a failure to queue after the write, and lets a transaction fail with it', async () => {
      const { revalidation, failSends } = setUp(ON);
      failSends(new Error('database gone'));
      await expect(revalidation.site('s1')).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ tags: ['site:s1'] }),
        'Could not queue a renderer revalidation',
      );
      await expect(revalidation.site('s1', inTransaction)).rejects.toThrow('database gone');
    });
  });

  describe('the job', () => {
    it('posts {"tags": [...]} to <RENDERER_URL>/~gitbook/revalidate, unsigned without a secret', async () => {
      const { revalidation, requests } = setUp(ON);
      await revalidation.deliver(['site:s1', 'space:a'], firstAttempt);
      expect(requests).toHaveLength(1);
      const [{ url, init }] = requests;
      expect(url).toBe('http://10.0.0.7:3000/~gitbook/revalidate');
      expect(init.method).toBe('POST');
      expect(init.headers).toEqual({ 'content-type': 'application/json' });
      expect(JSON.parse(String(init.body))).toEqual({ tags: ['site:s1', 'space:a'] });
    });

    it('signs the exact body with RENDERER_SECRET', async () => {
      const { revalidation, requests } = setUp({ ...ON, RENDERER_SECRET: 'shh' });
      await revalidation.deliver(['site:s1'], firstAttempt);
      const { body, headers } = requests[0].init;
      expect(headers?.['x-gitbook-signature']).toBe(revalidationSignature(body as Buffer, 'shh'));
      expect(headers?.['x-gitbook-signature']).toMatch(/^[0-9a-f]{64}$/);
    });

    it.each([204, 299])('is done when the renderer answers %i', async (status) => {
      const { revalidation } = setUp(ON, async () => status);
      await expect(revalidation.deliver(['site:s1'], firstAttempt)).resolves.toBeUndefined();
    });

    it.each([400, 401, 404, 500, 503, 302])(
      'fails, to be retried, when the renderer answers %i',
      async (status) => {
        const { revalidation } = setUp(ON, async () => status);
        await expect(revalidation.deliver(['site:s1'], firstAttempt)).rejects.toThrow(
          `the renderer answered ${status}`,
        );
        expect(logged).not.toHaveBeenCalled();
      },
    );

    it('fails, to be retried, when the renderer cannot be reached', async () => {
      const { revalidation } = setUp(ON, async () => {
        throw new OutboundHttpError('network_error', 'the connection was refused');
      });
      await expect(revalidation.deliver(['site:s1'], firstAttempt)).rejects.toThrow(
        'the connection was refused',
      );
    });

    it('says it gives up on the last attempt', async () => {
      const { revalidation } = setUp(ON, async () => 500);
      await expect(revalidation.deliver(['site:s1'], lastAttempt)).rejects.toThrow();
      expect(logged).toHaveBeenCalledWith(
        { tags: ['site:s1'], attempts: RETRY_LIMIT + 1 },
        "Gave up revalidating the renderer's cache: the renderer answered 500",
      );
    });

    it('drops a job queued before RENDERER_URL was unset', async () => {
      const { revalidation, requests } = setUp();
      await expect(revalidation.deliver(['site:s1'], firstAttempt)).resolves.toBeUndefined();
      expect(requests).toEqual([]);
    });
  });
});
