import { ChangeRequest } from '../src/change-requests/entities/change-request.entity';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { ChangeRequestBody, PageOf } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { invite } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

const DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why.', marks: [] }] }],
    },
  ],
};

describe('change requests', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
  });
  afterAll(() => t.close());

  const base = (spaceId: string) => `/v1/spaces/${spaceId}/change-requests`;

  async function counts(spaceId: string) {
    const res = await owner.get(`/v1/spaces/${spaceId}`).expect(200);
    const { changeRequests, changeRequestsOpen, changeRequestsDraft } = res.body as Record<
      string,
      number
    >;
    return { changeRequests, changeRequestsOpen, changeRequestsDraft };
  }

  describe('POST /v1/spaces/:spaceId/change-requests (createChangeRequest)', () => {
    it('numbers 20 parallel creates in one space 1..20, without gap or duplicate', async () => {
      const org = await t.factories.organization();
      const space = await org.owner.client.post(`/v1/orgs/${org.id}/spaces`, {}).expect(201);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          org.owner.client.post(`/v1/spaces/${space.body.id}/change-requests`, {}),
        ),
      );
      expect(results.map((res) => res.status)).toEqual(Array(20).fill(201));
      const numbers = results.map((res) => res.body.number as number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const read = await org.owner.client.get(`/v1/spaces/${space.body.id}`).expect(200);
      expect(read.body.changeRequests).toBe(20);
    });

    it('opens change request 1 on the primary revision, ignoring unknown properties', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const res = await owner
        .post(base(s.id), { subject: 'Fix typos', agentTaskId: 'task', whatever: { a: 1 } })
        .expect(201);
      expectConforms(res, 'createChangeRequest');
      const body = res.body as ChangeRequestBody;
      expect(body).toEqual({
        object: 'change-request',
        id: expect.any(String),
        number: 1,
        status: 'open',
        subject: 'Fix typos',
        createdBy: expect.objectContaining({ object: 'user', id: org.owner.id }),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        space: s.id,
        revision: s.revision,
        revisionInitial: s.revision,
        comments: 0,
        outdated: false,
        urls: {
          app: expect.stringContaining(`/s/${s.id}/`),
          location: `${TEST_PUBLIC_URL}/v1/spaces/${s.id}/change-requests/${body.id}`,
        },
      });
      expect(res.headers.location).toBe(body.urls.location);
      expect(await counts(s.id)).toEqual({
        changeRequests: 1,
        changeRequestsOpen: 1,
        changeRequestsDraft: 0,
      });
    });

    it('takes an empty body, a draft status, and a 100-character subject; 101 is a 400', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const plain = await t.factories.changeRequest(org, s.id);
      expect(plain).toEqual(expect.objectContaining({ number: 1, subject: '', status: 'open' }));
      const subject = '🚀'.repeat(100);
      const draft = await t.factories.changeRequest(org, s.id, { subject, status: 'draft' });
      expect(draft).toEqual(expect.objectContaining({ number: 2, subject, status: 'draft' }));
      const tooLong = await owner.post(base(s.id), { subject: 'x'.repeat(101) }).expect(400);
      expect(tooLong.body.error.message).toContain('subject');
      await owner.post(base(s.id), { status: 'archived' }).expect(400);
      await owner.post(base(s.id), { subject: 42 }).expect(400);
      await owner.post(base(s.id), { template: { id: 'blank' } }).expect(400);
      expect(await counts(s.id)).toEqual({
        changeRequests: 2,
        changeRequestsOpen: 1,
        changeRequestsDraft: 1,
      });
    });

    it('needs edit on the space: a read or comment member gets 403, a guest and a stranger 404', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const reader = await t.factories.asMember(org, 'read');
      const commenter = await t.factories.asMember(org, 'comment');
      const editor = await t.factories.asMember(org, 'edit');
      const guest = await t.factories.asMember(org, null);
      const stranger = (await t.factories.organization()).owner.client;
      const forbidden = await reader.post(base(s.id), { subject: 'No' }).expect(403);
      expect(forbidden.body).toEqual({ error: { code: 403, message: expect.any(String) } });
      await commenter.post(base(s.id), {}).expect(403);
      await guest.post(base(s.id), {}).expect(404);
      const hidden = await stranger.post(base(s.id), {}).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Space not found.' } });
      await t.anonymous.post(base(s.id), {}).expect(401);
      const made = await t.factories.changeRequest(org, s.id, { subject: 'Yes', by: editor });
      expect(made.number).toBe(1);
      expect(await counts(s.id)).toEqual(
        expect.objectContaining({ changeRequests: 1, changeRequestsOpen: 1 }),
      );
    });

    it('answers 404 for a space in the trash', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      await owner.delete(`/v1/spaces/${s.id}`).expect(204);
      await owner.post(base(s.id), {}).expect(404);
    });
  });

  describe('GET /v1/spaces/:spaceId/change-requests/:changeRequestId (getChangeRequestById)', () => {
    it('finds it by id and by number; anything else is a 404', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const other = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id, { subject: 'Find me' });
      const elsewhere = await t.factories.changeRequest(org, other.id);

      const byId = await owner.get(`${base(s.id)}/${made.id}`).expect(200);
      expectConforms(byId, 'getChangeRequestById');
      expect(byId.body).toEqual(made);
      const byNumber = await owner.get(`${base(s.id)}/1`).expect(200);
      expect(byNumber.body).toEqual(made);

      for (const id of ['2', '0', 'nope', elsewhere.id, '99999999999']) {
        const res = await owner.get(`${base(s.id)}/${id}`).expect(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Change request not found.' } });
      }
    });

    it('is readable with the read role; hidden from guests and other organizations', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id);
      const reader = await t.factories.asMember(org, 'read');
      const guest = await t.factories.asMember(org, null);
      const stranger = (await t.factories.organization()).owner.client;
      await reader.get(`${base(s.id)}/${made.id}`).expect(200);
      await guest.get(`${base(s.id)}/${made.id}`).expect(404);
      await stranger.get(`${base(s.id)}/${made.id}`).expect(404);
    });

    it('is outdated once the primary revision moves past the one it started from', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id);
      await owner.post(`/v1/spaces/${s.id}/content/template`, { id: 'blank' }).expect(201);
      const res = await owner.get(`${base(s.id)}/${made.id}`).expect(200);
      expectConforms(res, 'getChangeRequestById');
      expect(res.body).toEqual(
        expect.objectContaining({ outdated: true, revisionInitial: s.revision }),
      );
      const later = await t.factories.changeRequest(org, s.id);
      expect(later.outdated).toBe(false);
      expect(later.revisionInitial).not.toBe(s.revision);
    });
  });

  describe('PATCH /v1/spaces/:spaceId/change-requests/:changeRequestId (updateChangeRequestById)', () => {
    it('sets the subject and description; absent fields stay', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id, { subject: 'Before' });
      t.clock.advance(1000);
      const res = await owner
        .patch(`${base(s.id)}/${made.number}`, { subject: 'After', description: DOCUMENT })
        .expect(200);
      expectConforms(res, 'updateChangeRequestById');
      expect(res.body).toEqual({
        ...made,
        subject: 'After',
        description: DOCUMENT,
        updatedAt: expect.any(String),
      });
      expect(res.body.updatedAt > made.updatedAt).toBe(true);
      const unchanged = await owner.patch(`${base(s.id)}/${made.id}`, {}).expect(200);
      expect(unchanged.body).toEqual(res.body);
    });

    it('moves the status between draft, open and archived, keeping the counts true', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id);
      const path = `${base(s.id)}/${made.id}`;
      const steps: [string, { changeRequestsOpen: number; changeRequestsDraft: number }][] = [
        ['draft', { changeRequestsOpen: 0, changeRequestsDraft: 1 }],
        ['open', { changeRequestsOpen: 1, changeRequestsDraft: 0 }],
        ['archived', { changeRequestsOpen: 0, changeRequestsDraft: 0 }],
        ['draft', { changeRequestsOpen: 0, changeRequestsDraft: 1 }],
        ['archived', { changeRequestsOpen: 0, changeRequestsDraft: 0 }],
        ['open', { changeRequestsOpen: 1, changeRequestsDraft: 0 }],
        ['open', { changeRequestsOpen: 1, changeRequestsDraft: 0 }],
      ];
      for (const [status, expected] of steps) {
        const res = await owner.patch(path, { status }).expect(200);
        expect(res.body.status).toBe(status);
        expect(await counts(s.id)).toEqual({ changeRequests: 1, ...expected });
      }
    });

    it('refuses bad input: merged, nulls, a long subject, a bad document, unknown fields', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id);
      const path = `${base(s.id)}/${made.id}`;
      for (const body of [
        { status: 'merged' },
        { status: null },
        { subject: null },
        { subject: 'x'.repeat(101) },
        { description: { object: 'nope' } },
        { extra: true },
      ]) {
        const res = await owner.patch(path, body).expect(400);
        expect(res.body).toEqual({ error: { code: 400, message: expect.any(String) } });
      }
      expect((await owner.get(path).expect(200)).body).toEqual(made);
    });

    it('refuses any change to a merged change request', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id);
      await t.dataSource
        .getRepository(ChangeRequest)
        .update({ id: made.id }, { status: 'merged', revisionMerged: s.revision });
      const path = `${base(s.id)}/${made.id}`;
      const res = await owner.patch(path, { subject: 'Too late' }).expect(409);
      expect(res.body.error.message).toContain('merged');
      await owner.patch(path, { status: 'open' }).expect(409);
      const merged = await owner.get(path).expect(200);
      expectConforms(merged, 'getChangeRequestById');
      expect(merged.body).toEqual(
        expect.objectContaining({ status: 'merged', revisionMerged: s.revision, outdated: false }),
      );
    });

    it('needs edit on the space; 404 for an unknown change request', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const made = await t.factories.changeRequest(org, s.id);
      const reader = await t.factories.asMember(org, 'read');
      const stranger = (await t.factories.organization()).owner.client;
      await reader.patch(`${base(s.id)}/${made.id}`, { subject: 'No' }).expect(403);
      await stranger.patch(`${base(s.id)}/${made.id}`, { subject: 'No' }).expect(404);
      await owner.patch(`${base(s.id)}/7`, { subject: 'No' }).expect(404);
    });
  });

  describe('GET /v1/spaces/:spaceId/change-requests (listChangeRequestsForSpace)', () => {
    it('lists open ones by default, highest number first, by status and creator, page by page', async () => {
      const s = await t.factories.space(org, { title: 'Handbook' });
      const editor = await t.factories.member(org, 'edit');
      const first = await t.factories.changeRequest(org, s.id, { subject: 'One' });
      const second = await t.factories.changeRequest(org, s.id, {
        subject: 'Two',
        by: editor.client,
      });
      const draft = await t.factories.changeRequest(org, s.id, {
        subject: 'Draft',
        status: 'draft',
      });
      const third = await t.factories.changeRequest(org, s.id, { subject: 'Three' });
      const archived = await t.factories.changeRequest(org, s.id);
      await owner.patch(`${base(s.id)}/${archived.id}`, { status: 'archived' }).expect(200);

      const ids = (body: PageOf<ChangeRequestBody>) => body.items.map((cr) => cr.id);
      const open = await owner.get(base(s.id)).expect(200);
      expectConforms(open, 'listChangeRequestsForSpace');
      expect(ids(open.body)).toEqual([third.id, second.id, first.id]);
      expect(open.body.count).toBe(3);
      expect(open.body).not.toHaveProperty('next');

      const drafts = await owner.get(`${base(s.id)}?status=draft`).expect(200);
      expect(ids(drafts.body)).toEqual([draft.id]);
      const archivedOnes = await owner.get(`${base(s.id)}?status=archived`).expect(200);
      expect(ids(archivedOnes.body)).toEqual([archived.id]);
      const byEditor = await owner.get(`${base(s.id)}?creator=${editor.id}`).expect(200);
      expect(ids(byEditor.body)).toEqual([second.id]);
      const contributed = await owner.get(`${base(s.id)}?contributor=${editor.id}`).expect(200);
      expect(ids(contributed.body)).toEqual([second.id]);
      const reviewer = await owner.get(`${base(s.id)}?requestedReviewer=${editor.id}`).expect(200);
      expect(reviewer.body).toEqual({ items: [], count: 0 });
      // Editing another's content makes a contributor; asking for a review, a requested reviewer.
      await editor.client
        .post(`${base(s.id)}/${third.id}/content`, {
          changes: [{ operation: 'insert_page', title: 'Added', document: { markdown: 'Hi' } }],
        })
        .expect(200);
      await owner
        .post(`${base(s.id)}/${first.id}/requested-reviewers`, { users: [editor.id] })
        .expect(200);
      const contributedNow = await owner.get(`${base(s.id)}?contributor=${editor.id}`).expect(200);
      expect(ids(contributedNow.body)).toEqual([third.id, second.id]);
      const reviewerNow = await owner
        .get(`${base(s.id)}?requestedReviewer=${editor.id}`)
        .expect(200);
      expect(ids(reviewerNow.body)).toEqual([first.id]);

      const page1 = await owner.get(`${base(s.id)}?limit=2`).expect(200);
      expect(ids(page1.body)).toEqual([third.id, second.id]);
      expect(page1.body.count).toBe(3);
      const page2 = await owner
        .get(`${base(s.id)}?limit=2&page=${page1.body.next.page}`)
        .expect(200);
      expectConforms(page2, 'listChangeRequestsForSpace');
      expect(ids(page2.body)).toEqual([first.id]);
      expect(page2.body).not.toHaveProperty('next');

      await owner.get(`${base(s.id)}?status=nope`).expect(400);
      await owner.get(`${base(s.id)}?sort=asc`).expect(400);
      await owner.get(`${base(s.id)}?page=garbage`).expect(400);
      const stranger = (await t.factories.organization()).owner.client;
      await stranger.get(base(s.id)).expect(404);
    });
  });

  describe('GET /v1/orgs/:organizationId/change-requests (listChangeRequestsForOrganization)', () => {
    it("lists the organization's open change requests on the spaces the caller can see", async () => {
      const own = await t.factories.organization();
      const shared = await t.factories.space(own, { title: 'Handbook' });
      const hidden = await t.factories.space(own, { title: 'Handbook' });
      const trashed = await t.factories.space(own, { title: 'Handbook' });
      const elsewhere = await t.factories.space(org, { title: 'Handbook' });
      const client = own.owner.client;
      const a = await t.factories.changeRequest(org, shared.id, { subject: 'A', by: client });
      const b = await t.factories.changeRequest(org, hidden.id, { subject: 'B', by: client });
      await t.factories.changeRequest(org, hidden.id, { status: 'draft', by: client });
      await t.factories.changeRequest(org, trashed.id, { by: client });
      await t.factories.changeRequest(org, elsewhere.id);
      await client.delete(`/v1/spaces/${trashed.id}`).expect(204);
      const guest = await t.factories.member(own, null);
      await invite(client, 'space', shared.id, { role: 'read', users: [guest.id] });
      const reader = await t.factories.asMember(own, 'read');

      const path = `/v1/orgs/${own.id}/change-requests`;
      const ids = (body: PageOf<ChangeRequestBody>) => body.items.map((cr) => cr.id).sort();
      const all = await reader.get(path).expect(200);
      expectConforms(all, 'listChangeRequestsForOrganization');
      expect(ids(all.body)).toEqual([a.id, b.id].sort());
      expect(all.body.count).toBe(2);
      const drafts = await reader.get(`${path}?status=draft`).expect(200);
      expect(drafts.body.items).toHaveLength(1);
      const asGuest = await guest.client.get(path).expect(200);
      expect(ids(asGuest.body)).toEqual([a.id]);
      const paged = await client.get(`${path}?limit=1`).expect(200);
      expect(paged.body.items).toHaveLength(1);
      const rest = await client.get(`${path}?limit=1&page=${paged.body.next.page}`).expect(200);
      expect([...ids(paged.body), ...ids(rest.body)].sort()).toEqual([a.id, b.id].sort());
      await owner.get(path).expect(404);
    });

    it('follows a space transferred to another organization', async () => {
      const from = await t.factories.organization();
      const to = await t.factories.organization({ owner: from.owner });
      const s = await t.factories.space(from, { title: 'Handbook' });
      const made = await t.factories.changeRequest(from, s.id);
      await from.owner.client
        .post(`/v1/spaces/${s.id}/transfer`, { organization: to.id })
        .expect(200);
      const before = await from.owner.client.get(`/v1/orgs/${from.id}/change-requests`).expect(200);
      expect(before.body.items).toEqual([]);
      const after = await from.owner.client.get(`/v1/orgs/${to.id}/change-requests`).expect(200);
      expect(after.body.items.map((cr: ChangeRequestBody) => cr.id)).toEqual([made.id]);
    });

    it('follows the spaces of a collection transferred to another organization', async () => {
      const from = await t.factories.organization();
      const to = await t.factories.organization({ owner: from.owner });
      const top = await t.factories.collection(from);
      const sub = await t.factories.collection(from, { parent: top.id });
      const s = await t.factories.space(from, { parent: sub.id });
      const made = await t.factories.changeRequest(from, s.id);
      await from.owner.client
        .post(`/v1/collections/${top.id}/transfer`, { organization: to.id })
        .expect(200);
      const before = await from.owner.client.get(`/v1/orgs/${from.id}/change-requests`).expect(200);
      expect(before.body.items).toEqual([]);
      const after = await from.owner.client.get(`/v1/orgs/${to.id}/change-requests`).expect(200);
      expect(after.body.items.map((cr: ChangeRequestBody) => cr.id)).toEqual([made.id]);
    });
  });
});
