import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { REVALIDATION_QUEUE } from '../src/platform/revalidation/revalidation.service';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/**
 * Bindery tells GitBook's site renderer (RENDERER_URL) to revalidate its cache when published
 * content changes. A fake renderer on 127.0.0.1 records each `POST /~gitbook/revalidate` and
 * checks its signature; OUTBOUND_ALLOW_PRIVATE is false, as in production, since the renderer's
 * address is the operator's, not a user's.
 */

const SECRET = 'renderer-secret-for-tests';

interface RevalidateRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  tags: string[];
  /** The signature matches the HMAC-SHA256 of the raw body with the renderer's secret. */
  signed: boolean;
}

interface FakeRenderer {
  origin: string;
  requests: RevalidateRequest[];
  /** The next `times` requests carrying `tag` answer 500. */
  failFor(tag: string, times: number): void;
  /** Requests (answered 500 or 200) that carried `tag`. */
  carrying(tag: string): RevalidateRequest[];
  close(): Promise<void>;
}

async function startFakeRenderer(): Promise<FakeRenderer> {
  const requests: RevalidateRequest[] = [];
  const failures = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = createHmac('sha256', SECRET).update(raw).digest('hex');
      const { tags } = JSON.parse(raw.toString('utf8')) as { tags: string[] };
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        tags,
        signed: req.headers['x-gitbook-signature'] === expected,
      });
      const failing = tags.find((tag) => (failures.get(tag) ?? 0) > 0);
      if (failing !== undefined) failures.set(failing, (failures.get(failing) ?? 0) - 1);
      res.statusCode = failing === undefined ? 200 : 500;
      res.setHeader('content-type', 'application/json');
      res.end(failing === undefined ? '{"success":true}' : '{"error":"down"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    failFor: (tag, times) => void failures.set(tag, times),
    carrying: (tag) => requests.filter((request) => request.tags.includes(tag)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('revalidation of the site renderer', () => {
  let renderer: FakeRenderer;
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    renderer = await startFakeRenderer();
    t = await createTestApp({
      RENDERER_URL: `${renderer.origin}/`,
      RENDERER_SECRET: SECRET,
      OUTBOUND_ALLOW_PRIVATE: 'false',
    });
    org = await t.factories.organization();
  });
  afterAll(async () => {
    await t.close();
    await renderer.close();
  });

  /** The revalidation jobs queued so far with `tag` among their tags (they are never lost). */
  async function jobsCarrying(tag: string): Promise<{ state: string }[]> {
    return t.dataSource.query(
      `SELECT state FROM pgboss.job WHERE name = $1 AND data->'tags' ? $2`,
      [REVALIDATION_QUEUE, tag],
    );
  }

  async function publishedSite(spaceIds: string[]) {
    const site = await t.factories.site(org, { spaces: spaceIds });
    await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`, {}).expect(200);
    await waitFor(() => renderer.carrying(`site:${site.id}`).length > 0);
    return site;
  }

  it('revalidates a site when it is published, signed, with its spaces', async () => {
    const space = await t.factories.space(org, { title: 'Guide' });
    const site = await t.factories.site(org, { spaces: [space.id] });
    await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`, {}).expect(200);

    await waitFor(() => renderer.carrying(`site:${site.id}`).length > 0);
    const [request] = renderer.carrying(`site:${site.id}`);
    expect(request).toEqual({
      method: 'POST',
      path: '/~gitbook/revalidate',
      contentType: 'application/json',
      tags: [`site:${site.id}`, `space:${space.id}`],
      signed: true,
    });
  });

  it('revalidates a space published in a site when a merge moves its primary revision', async () => {
    const space = await t.factories.space(org, { title: 'Published' });
    await publishedSite([space.id]);
    const before = renderer.carrying(`space:${space.id}`).length;

    await t.factories.changeRequest(org, space.id, {
      changes: [insertPage('Install', 'Run it.')],
      merge: true,
    });

    await waitFor(() => renderer.carrying(`space:${space.id}`).length > before);
    const request = renderer.carrying(`space:${space.id}`).at(-1);
    expect(request).toMatchObject({ tags: [`space:${space.id}`], signed: true });
  });

  it('asks nothing for a space that no published site shows', async () => {
    const alone = await t.factories.space(org, { title: 'Alone' });
    const inDraftSite = await t.factories.space(org, { title: 'Draft' });
    await t.factories.site(org, { spaces: [inDraftSite.id] });

    for (const space of [alone, inDraftSite]) {
      await t.factories.changeRequest(org, space.id, {
        changes: [insertPage('Notes', 'Text.')],
        merge: true,
      });
    }

    // The job would be queued by the merge's own transaction, which has committed.
    expect(await jobsCarrying(`space:${alone.id}`)).toEqual([]);
    expect(await jobsCarrying(`space:${inDraftSite.id}`)).toEqual([]);
  });

  it('revalidates a site when its structure, customization or share links change', async () => {
    const site = await publishedSite([(await t.factories.space(org)).id]);
    const tag = `site:${site.id}`;
    const client = org.owner.client;
    const changes: (() => Promise<unknown>)[] = [
      () => t.factories.siteSpace(org, site.id, { spaceTitle: 'More' }),
      () =>
        client
          .put(`/v1/orgs/${org.id}/sites/${site.id}/customization`, { title: 'Acme' })
          .expect(200),
      () => t.factories.shareLink(org, site.id, { name: 'Reviewers' }),
      () => client.patch(`/v1/orgs/${org.id}/sites/${site.id}`, { title: 'Acme docs' }).expect(200),
    ];
    for (const change of changes) {
      // The previous job has left the queue: this change queues one of its own.
      await waitFor(async () => (await jobsCarrying(tag)).every((j) => j.state !== 'created'));
      const before = await jobsCarrying(tag);
      await change();
      // Queued by the write (once it waits, further writes join it), then delivered.
      expect((await jobsCarrying(tag)).length).toBe(before.length + 1);
      await waitFor(async () => (await jobsCarrying(tag)).every((j) => j.state === 'completed'));
    }
    expect(renderer.carrying(tag).every((request) => request.signed)).toBe(true);
  });

  it('makes a burst of changes to a site one request', async () => {
    const site = await publishedSite([(await t.factories.space(org)).id]);
    const tag = `site:${site.id}`;
    const before = renderer.carrying(tag).length;
    await waitFor(async () => (await jobsCarrying(tag)).every((j) => j.state === 'completed'));

    const client = org.owner.client;
    for (const title of ['One', 'Two', 'Three']) {
      await client.patch(`/v1/orgs/${org.id}/sites/${site.id}`, { title }).expect(200);
    }

    await waitFor(async () => (await jobsCarrying(tag)).every((j) => j.state === 'completed'));
    expect(renderer.carrying(tag).length).toBe(before + 1);
  });

  it('retries a revalidation the renderer refuses, until it is delivered', async () => {
    const site = await t.factories.site(org, { spaces: [(await t.factories.space(org)).id] });
    const tag = `site:${site.id}`;
    renderer.failFor(tag, 2);

    await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`, {}).expect(200);

    await waitFor(async () => (await jobsCarrying(tag))[0]?.state === 'completed', 28_000);
    expect(renderer.carrying(tag)).toHaveLength(3);
    expect(renderer.carrying(tag).every((request) => request.signed)).toBe(true);
  }, 30_000);

  it('tags the published site and the space with the cache tags the renderer revalidates', async () => {
    const space = await t.factories.space(org);
    const site = await publishedSite([space.id]);
    const client = org.owner.client;

    const published = await client.get(`/v1/orgs/${org.id}/sites/${site.id}/published`).expect(200);
    expectConforms(published, 'getPublishedContentSite');
    // Its spaces' tags too: each site space carries its space's current revision.
    expect(published.headers['x-gitbook-cache-tag']).toBe(`site:${site.id},space:${space.id}`);
    const read = await client.get(`/v1/spaces/${space.id}`).expect(200);
    expectConforms(read, 'getSpaceById');
    expect(read.headers['x-gitbook-cache-tag']).toBe(`space:${space.id}`);
  });
});

describe('without RENDERER_URL', () => {
  it('queues no revalidation', async () => {
    const t = await createTestApp();
    try {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const site = await t.factories.site(org, { spaces: [space.id] });
      await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`, {}).expect(200);
      await t.factories.changeRequest(org, space.id, {
        changes: [insertPage('Install', 'Run it.')],
        merge: true,
      });
      const jobs: unknown[] = await t.dataSource.query(
        `SELECT id FROM pgboss.job WHERE name = $1`,
        [REVALIDATION_QUEUE],
      );
      expect(jobs).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
