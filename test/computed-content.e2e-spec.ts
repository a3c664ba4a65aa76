import { IntegrationInstallationEvents } from '../src/integrations/installations/installation-events';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, expectMatchesSchema, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * getComputedDocument and getComputedRevision: content computed by an integration's content
 * source, its script run in workerd with GitBook's `content_compute_document` and
 * `content_compute_revision` events.
 */

/**
 * A content source `releases` of the tests' own: a document listing `props.limit` releases of
 * the space it computes for, or a revision of a page per release (the last as markdown), a
 * group and a file; `props.fail` answers an error, `props.junk` something else.
 */
const SCRIPT = `
  export default {
    async fetch(request) {
      const form = await request.formData();
      const event = JSON.parse(form.get('event'));
      const environment = JSON.parse(form.get('environment'));
      if (event.props.fail) return new Response('boom', { status: 500 });
      if (event.props.junk) return Response.json({ document: { object: 'nope' }, pages: 'x' });
      const releases = Array.from({ length: event.props.limit }, (_, i) => 'v' + (i + 1));
      const paragraph = (text) => ({
        object: 'block', type: 'paragraph', data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
      });
      if (event.type === 'content_compute_document') {
        return Response.json({
          document: {
            object: 'document', data: {},
            nodes: [
              paragraph('Releases of ' + event.spaceId + ' (' + event.sourceId + ', ' +
                environment.spaceInstallation.space + ')'),
              ...releases.map(paragraph),
            ],
          },
        });
      }
      if (event.type === 'content_compute_revision') {
        return Response.json({
          pages: [
            { type: 'group', title: 'Releases', pages: releases.map((r, i) =>
              i === releases.length - 1
                ? { type: 'document', title: 'Release ' + r, markdown: '# ' + r + '\\n\\nThe latest.' }
                : { type: 'document', id: 'rel' + i, title: 'Release ' + r, slug: r,
                    document: { object: 'document', data: {}, nodes: [paragraph(r)] } }) },
            { type: 'link', title: 'Website', target: { kind: 'url', url: 'https://example.com' } },
          ],
          files: [{ name: 'notes.txt', contentType: 'text/plain', downloadURL: 'https://example.com/notes.txt', size: 5 }],
        });
      }
      return new Response('unknown event', { status: 400 });
    },
  };`;

function expectError(res: { status: number; body: unknown }, code: number, text: string) {
  expect(res.status).toBe(code);
  expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
}

describe('computed content', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let count = 0;
  /** The integration published and installed on a new space of `org`. */
  async function installed(org: TestOrganization) {
    const name = `computed-${Date.now().toString(36)}-${(count += 1)}`;
    await org.owner.client
      .post(`/v1/integrations/${name}`, {
        title: 'Releases',
        description: '',
        scopes: [],
        organization: org.id,
        contentSources: [
          { id: 'releases', title: 'Releases', configuration: { componentId: 'c' } },
        ],
        script: SCRIPT,
      })
      .expect(200);
    const space = await t.factories.space(org, { title: 'Changelog' });
    const installation = await org.owner.client
      .post(`/v1/integrations/${name}/installations`, { organization: org.id })
      .expect(201);
    await org.owner.client
      .post(`/v1/integrations/${name}/installations/${installation.body.id}/spaces`, {
        space: space.id,
      })
      .expect(201);
    await t.bindery.app.get(IntegrationInstallationEvents).settled();
    return { name, spaceId: space.id };
  }

  const source = (name: string, props: object = { limit: 2 }) => ({
    type: `integration:${name}:releases`,
    props,
  });

  it("computes a document with the space's installation of the integration", async () => {
    const org = await t.factories.organization();
    const { name, spaceId } = await installed(org);
    const reader = await t.factories.asMember(org, 'read');

    const res = await reader
      .post(`/v1/spaces/${spaceId}/content/computed/document?schema=current`, {
        source: source(name, { limit: 3 }),
        seed: 'page-1',
      })
      .expect(200);
    expectConforms(res, 'getComputedDocument', GITBOOK_0202);
    const texts = (res.body.nodes as { nodes: { leaves: { text: string }[] }[] }[]).map(
      (node) => node.nodes[0].leaves[0].text,
    );
    expect(texts).toEqual([`Releases of ${spaceId} (releases, ${spaceId})`, 'v1', 'v2', 'v3']);

    // The event is GitBook's, recorded with the integration's events.
    const events = await org.owner.client
      .get(`/v1/integrations/${name}/events?limit=1`)
      .expect(200);
    const [latest] = events.body.items as { payload: Record<string, unknown> }[];
    expect(latest.payload).toMatchObject({
      type: 'content_compute_document',
      spaceId,
      sourceId: 'releases',
      props: { limit: 3 },
      dependencies: {},
    });
    expectMatchesSchema(latest.payload, 'ContentComputeDocumentEvent', GITBOOK_0202);
  });

  it('computes a revision: pages with seeded ids and slugs, files', async () => {
    const org = await t.factories.organization();
    const { name, spaceId } = await installed(org);
    const path = `/v1/spaces/${spaceId}/content/computed/revision`;
    const res = await org.owner.client
      .post(path, { source: source(name), seed: 'seed-a' })
      .expect(200);
    expectConforms(res, 'getComputedRevision', GITBOOK_0202);
    const [group, link] = res.body.pages;
    expect(group).toMatchObject({ type: 'group', title: 'Releases', slug: 'releases' });
    expect(group.pages.map((p: { id: string }) => p.id)[0]).toBe('rel0');
    const latest = group.pages[1];
    expect(latest).toMatchObject({
      type: 'document',
      title: 'Release v2',
      slug: 'release-v2',
      path: 'releases/release-v2',
    });
    expect(JSON.stringify(latest.document)).toContain('The latest.');
    expect(group.pages[0]).toMatchObject({ slug: 'v1', path: 'releases/v1' });
    expect(link).toMatchObject({ type: 'link', target: { kind: 'url' } });
    expect(res.body.files).toEqual([
      expect.objectContaining({ name: 'notes.txt', id: expect.any(String) }),
    ]);
    expect(res.body.reusableContents).toEqual([]);

    // The same seed computes the same ids; another seed others.
    const again = await org.owner.client
      .post(path, { source: source(name), seed: 'seed-a' })
      .expect(200);
    expect(again.body).toEqual(res.body);
    const other = await org.owner.client
      .post(path, { source: source(name), seed: 'seed-b' })
      .expect(200);
    expect(other.body.pages[0].id).not.toBe(group.id);
    expect(other.body.pages[0].pages[0].id).toBe('rel0'); // the script's own id stays
  });

  it('refuses bad input, sources it cannot compute, strangers and guests', async () => {
    const org = await t.factories.organization();
    const { name, spaceId } = await installed(org);
    const client = org.owner.client;
    for (const kind of ['document', 'revision']) {
      const path = `/v1/spaces/${spaceId}/content/computed/${kind}`;
      expectError(await client.post(path, { source: source(name) }), 400, 'seed');
      expectError(await client.post(path, { seed: 's' }), 400, 'source');
      expectError(
        await client.post(path, { source: { type: 'builtin:openapi', props: {} }, seed: 's' }),
        400,
        'source.type',
      );
      expectError(
        await client.post(path, {
          source: { ...source(name), dependencies: { spec: { ref: { kind: 'openapi' } } } },
          seed: 's',
        }),
        400,
        'dependencies',
      );
      expectError(
        await client.post(path, { source: source('nowhere'), seed: 's' }),
        404,
        'Integration nowhere installed on the space not found',
      );
      expectError(
        await client.post(path, {
          source: { type: `integration:${name}:unknown`, props: {} },
          seed: 's',
        }),
        404,
        'Content source unknown',
      );
      expectError(
        await client.post(path, { source: source(name, { fail: true }), seed: 's' }),
        503,
        'answered 500',
      );
      expectError(
        await client.post(path, { source: source(name, { junk: true }), seed: 's' }),
        503,
        'content source',
      );
      // Not installed on another space of the organization.
      const other = await t.factories.space(org, { title: 'Other' });
      expectError(
        await client.post(`/v1/spaces/${other.id}/content/computed/${kind}`, {
          source: source(name),
          seed: 's',
        }),
        404,
        'installed on the space',
      );
      const stranger = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      for (const caller of [stranger.owner.client, guest]) {
        expectError(
          await caller.post(path, { source: source(name), seed: 's' }),
          404,
          'Space not found',
        );
      }
    }
  });
});
