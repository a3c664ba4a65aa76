import { ChangeRequestContributors } from '../src/change-requests/reviews/change-request-contributors';
import { ChangeRequestReviewsService } from '../src/change-requests/reviews/change-request-reviews.service';
import { newId } from '../src/platform/ids/ids';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { PageOf, UserBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { insertGrant } from './helpers/content';
import type { TestOrganization, TestUser } from './helpers/factories';

interface ReviewBody {
  object: 'change-request-review';
  id: string;
  revision: string;
  reviewer: UserBody;
  requestedBy?: UserBody;
  status: string;
  outdated: boolean;
  comment?: {
    id: string;
    body: { markdown?: string; document?: { nodes: unknown[] } };
    target: Record<string, string>;
    postedBy: UserBody;
  };
  createdAt: string;
  updatedAt: string;
  urls: { location: string };
}

interface RequestedReviewerBody {
  object: 'change-request-requested-reviewer';
  kind: 'user';
  user: UserBody;
  revision: string;
  requestedBy: UserBody;
  createdAt: string;
  review?: { id: string; status: string };
}

interface ContributorBody {
  user: UserBody;
  count: number;
  updatedAt: string;
  actionType: 'edit' | 'comment';
}

interface ChangeRequestRef {
  spaceId: string;
  id: string;
  number: number;
  revision: string;
}

const DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Looks right.', marks: [] }] }],
    },
  ],
};

const errorShape = (code: number) => ({ error: { code, message: expect.any(String) } });

describe('change request reviews, requested reviewers and contributors', () => {
  let t: TestApp;
  let org: TestOrganization;
  /** The organization's admin: may review any change request it did not create. */
  let owner: Client;
  /** An editor who creates the change requests under review. */
  let author: TestUser;
  /** A member of another organization. */
  let stranger: Client;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
    author = await t.factories.member(org, 'edit');
    stranger = (await t.factories.organization()).owner.client;
  });
  afterAll(() => t.close());

  const path = (cr: ChangeRequestRef, rest = '') =>
    `/v1/spaces/${cr.spaceId}/change-requests/${cr.id}${rest}`;

  /** A change request by `author` (by default) in a new space of the organization. */
  async function changeRequest(by: TestUser = author): Promise<ChangeRequestRef> {
    const space = await t.factories.space(org, { title: 'Handbook' });
    const { id, number, revision } = await t.factories.changeRequest(org, space.id, {
      subject: 'Typos',
      by: by.client,
    });
    return { spaceId: space.id, id, number, revision };
  }

  /** Moves the change request's head to a new revision, as a content write would. */
  async function moveHead(cr: ChangeRequestRef): Promise<string> {
    const id = newId();
    await t.dataSource.query(
      `INSERT INTO revisions (id, space_id, parents, type, tree, created_at)
       SELECT $1, space_id, ARRAY[id], 'edits', tree, now() FROM revisions WHERE id = $2`,
      [id, cr.revision],
    );
    await t.dataSource.query('UPDATE change_requests SET revision = $1 WHERE id = $2', [id, cr.id]);
    return id;
  }

  async function review(
    cr: ChangeRequestRef,
    as: Client,
    body: object = { status: 'approved' },
  ): Promise<ReviewBody> {
    t.clock.advance(1000);
    const res = await as.post(path(cr, '/reviews'), body).expect(201);
    return res.body as ReviewBody;
  }

  async function requestReviewers(cr: ChangeRequestRef, users: TestUser[]) {
    t.clock.advance(1000);
    const res = await owner
      .post(path(cr, '/requested-reviewers'), { users: users.map((u) => u.id) })
      .expect(200);
    return res.body as { users: RequestedReviewerBody[] };
  }

  describe('POST .../reviews (submitChangeRequestReview)', () => {
    it('records an approval with a markdown comment on the head revision, with Location', async () => {
      const cr = await changeRequest();
      const res = await owner
        .post(path(cr, '/reviews'), {
          status: 'approved',
          comment: { markdown: 'Looks **right**.' },
        })
        .expect(201);
      expectConforms(res, 'submitChangeRequestReview');
      const body = res.body as ReviewBody;
      expect(body).toEqual({
        object: 'change-request-review',
        id: expect.any(String),
        revision: cr.revision,
        reviewer: expect.objectContaining({ object: 'user', id: org.owner.id }),
        status: 'approved',
        outdated: false,
        comment: expect.objectContaining({
          object: 'comment',
          postedBy: expect.objectContaining({ id: org.owner.id }),
          body: { markdown: 'Looks **right**.\n' },
          target: {
            space: cr.spaceId,
            revision: cr.revision,
            changeRequest: cr.id,
            review: body.id,
          },
          status: 'open',
        }),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        urls: {
          location: `${TEST_PUBLIC_URL}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/reviews/${body.id}`,
        },
      });
      expect(res.headers.location).toBe(body.urls.location);
      const read = await owner.get(path(cr, `/reviews/${body.id}`)).expect(200);
      expect(read.body).toEqual(body);
    });

    it('takes a JSON document comment, reads it back in either format; {} is no comment', async () => {
      const cr = await changeRequest();
      const made = await review(cr, owner, {
        status: 'changes-requested',
        comment: { document: DOCUMENT },
      });
      expect(made.status).toBe('changes-requested');
      expect(made.comment?.body).toEqual({ markdown: 'Looks right.\n' });
      const asDocument = await owner
        .get(path(cr, `/reviews/${made.id}?format=document`))
        .expect(200);
      expectConforms(asDocument, 'getChangeRequestReviewById');
      expect(asDocument.body.comment.body).toEqual({ document: DOCUMENT });

      const bare = await review(cr, owner, { status: 'approved', comment: {} });
      expect(bare).not.toHaveProperty('comment');
      const blank = await review(cr, owner, { status: 'approved', comment: { markdown: '  ' } });
      expect(blank).not.toHaveProperty('comment');
    });

    it('answers 400 with the error shape for a bad status or comment', async () => {
      const cr = await changeRequest();
      const cases: [object, string][] = [
        [{}, 'status'],
        [{ status: 'rejected' }, 'status'],
        [{ status: 'approved', comment: 'ok' }, 'comment'],
        [{ status: 'approved', comment: { markdown: 1 } }, 'comment.markdown'],
        [{ status: 'approved', comment: { markdown: 'a', document: DOCUMENT } }, 'comment'],
        [{ status: 'approved', comment: { html: '<p>' } }, 'comment.html'],
        [{ status: 'approved', comment: { document: { object: 'doc' } } }, 'comment.document'],
        [{ status: 'approved', extra: true }, 'extra'],
      ];
      for (const [body, field] of cases) {
        const res = await owner.post(path(cr, '/reviews'), body).expect(400);
        expect(res.body).toEqual(errorShape(400));
        expect(res.body.error.message).toContain(field);
      }
      const list = await owner.get(path(cr, '/reviews')).expect(200);
      expect(list.body.count).toBe(0);
    });

    it('refuses a review of a merged change request (409)', async () => {
      const cr = await changeRequest();
      await t.dataSource.query(`UPDATE change_requests SET status = 'merged' WHERE id = $1`, [
        cr.id,
      ]);
      const res = await owner.post(path(cr, '/reviews'), { status: 'approved' }).expect(409);
      expect(res.body).toEqual({
        error: {
          code: 409,
          message: 'The change request is merged: it cannot be reviewed any more.',
        },
      });
    });

    it('needs the review role unless requested; the creator may never review (403)', async () => {
      const cr = await changeRequest();
      const commenter = await t.factories.member(org, 'comment');
      const editor = await t.factories.member(org, 'edit');
      const reviewer = await t.factories.member(org, 'review');
      for (const member of [commenter, editor]) {
        const res = await member.client.post(path(cr, '/reviews'), { status: 'approved' });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: {
            code: 403,
            message:
              'Reviewing needs the review role on this space, or a request to review this change request.',
          },
        });
      }
      const own = await author.client
        .post(path(cr, '/reviews'), { status: 'changes-requested' })
        .expect(403);
      expect(own.body).toEqual({
        error: { code: 403, message: 'You cannot review a change request you created.' },
      });
      // The creator is refused even with the review role.
      const byAdmin = await changeRequest(org.owner);
      await owner.post(path(byAdmin, '/reviews'), { status: 'approved' }).expect(403);

      expect((await review(cr, reviewer.client)).reviewer.id).toBe(reviewer.id);
      await requestReviewers(cr, [commenter]);
      const requested = await review(cr, commenter.client);
      expect(requested.requestedBy?.id).toBe(org.owner.id);
      const list = await owner.get(path(cr, '/reviews')).expect(200);
      expect(list.body.count).toBe(2);
    });

    it('lets a requested reader review; a guest, another organization and unknown ids get 404', async () => {
      const cr = await changeRequest();
      const reader = await t.factories.member(org, 'read');
      await reader.client.post(path(cr, '/reviews'), { status: 'approved' }).expect(403);
      await requestReviewers(cr, [reader]);
      await review(cr, reader.client);

      const guest = await t.factories.asMember(org, null);
      await guest.post(path(cr, '/reviews'), { status: 'approved' }).expect(404);
      const hidden = await stranger.post(path(cr, '/reviews'), { status: 'approved' }).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Space not found.' } });
      for (const id of ['nope', '99']) {
        const res = await owner
          .post(`/v1/spaces/${cr.spaceId}/change-requests/${id}/reviews`, { status: 'approved' })
          .expect(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Change request not found.' } });
      }
    });

    it("outdates the reviewer's earlier review, and every review once the head moves", async () => {
      const cr = await changeRequest();
      const reviewer = await t.factories.member(org, 'review');
      const first = await review(cr, owner, { status: 'changes-requested' });
      const other = await review(cr, reviewer.client);
      const second = await review(cr, owner);
      const outdated = async (id: string) =>
        (await owner.get(path(cr, `/reviews/${id}`)).expect(200)).body.outdated as boolean;
      expect(await outdated(first.id)).toBe(true);
      expect(await outdated(other.id)).toBe(false);
      expect(await outdated(second.id)).toBe(false);

      const head = await moveHead(cr);
      expect(await outdated(other.id)).toBe(true);
      expect(await outdated(second.id)).toBe(true);
      const third = await review(cr, owner);
      expect(third).toEqual(expect.objectContaining({ revision: head, outdated: false }));
    });
  });

  describe('GET .../reviews (getReviewsByChangeRequestId)', () => {
    it('lists newest first in pages, filtered by outdated', async () => {
      const cr = await changeRequest();
      const reviewer = await t.factories.member(org, 'review');
      const a = await review(cr, owner, { status: 'changes-requested' });
      const b = await review(cr, reviewer.client, {
        status: 'approved',
        comment: { markdown: 'Hi' },
      });
      const c = await review(cr, owner);

      const all = await owner.get(path(cr, '/reviews?format=document')).expect(200);
      expectConforms(all, 'getReviewsByChangeRequestId');
      const body = all.body as PageOf<ReviewBody>;
      expect(body.count).toBe(3);
      expect(body.items.map((r) => [r.id, r.outdated])).toEqual([
        [c.id, false],
        [b.id, false],
        [a.id, true],
      ]);
      expect(body.items[1].comment?.body.document).toEqual(
        expect.objectContaining({ object: 'document' }),
      );
      expect(body).not.toHaveProperty('next');

      const first = await owner.get(path(cr, '/reviews?limit=2')).expect(200);
      expect(first.body.items.map((r: ReviewBody) => r.id)).toEqual([c.id, b.id]);
      expect(first.body.count).toBe(3);
      const next = await owner
        .get(path(cr, `/reviews?limit=2&page=${first.body.next.page}`))
        .expect(200);
      expectConforms(next, 'getReviewsByChangeRequestId');
      expect(next.body.items.map((r: ReviewBody) => r.id)).toEqual([a.id]);
      expect(next.body).not.toHaveProperty('next');

      const outdated = await owner.get(path(cr, '/reviews?outdated=true')).expect(200);
      expect(outdated.body.items.map((r: ReviewBody) => r.id)).toEqual([a.id]);
      const current = await owner.get(path(cr, '/reviews?outdated=false')).expect(200);
      expect(current.body.items.map((r: ReviewBody) => r.id)).toEqual([c.id, b.id]);
      await moveHead(cr);
      const afterMove = await owner.get(path(cr, '/reviews?outdated=false')).expect(200);
      expect(afterMove.body).toEqual({ items: [], count: 0 });
    });

    it('is readable with the read role (by number too); 400 on bad query, 404 otherwise', async () => {
      const cr = await changeRequest();
      await review(cr, owner);
      const reader = await t.factories.asMember(org, 'read');
      const byNumber = await reader
        .get(`/v1/spaces/${cr.spaceId}/change-requests/${cr.number}/reviews`)
        .expect(200);
      expect(byNumber.body.count).toBe(1);
      for (const query of ['outdated=maybe', 'format=html', 'limit=0', 'page=garbage']) {
        const res = await reader.get(path(cr, `/reviews?${query}`)).expect(400);
        expect(res.body).toEqual(errorShape(400));
      }
      const unknown = await owner
        .get(`/v1/spaces/${cr.spaceId}/change-requests/42/reviews`)
        .expect(404);
      expectConforms(unknown, 'getReviewsByChangeRequestId');
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Change request not found.' } });
      const hidden = await stranger.get(path(cr, '/reviews')).expect(404);
      expectConforms(hidden, 'getReviewsByChangeRequestId');
    });
  });

  describe('GET .../reviews/:reviewId (getChangeRequestReviewById)', () => {
    it("finds a review of this change request only; 404 for another's, unknown ids and strangers", async () => {
      const cr = await changeRequest();
      const made = await review(cr, owner);
      const res = await owner
        .get(`/v1/spaces/${cr.spaceId}/change-requests/${cr.number}/reviews/${made.id}`)
        .expect(200);
      expectConforms(res, 'getChangeRequestReviewById');
      expect(res.body).toEqual(made);

      const elsewhere = await changeRequest();
      for (const url of [path(elsewhere, `/reviews/${made.id}`), path(cr, '/reviews/nope')]) {
        const missing = await owner.get(url).expect(404);
        expectConforms(missing, 'getChangeRequestReviewById');
        expect(missing.body).toEqual({ error: { code: 404, message: 'Review not found.' } });
      }
      const unknownCr = await owner
        .get(`/v1/spaces/${cr.spaceId}/change-requests/nope/reviews/${made.id}`)
        .expect(404);
      expect(unknownCr.body.error.message).toBe('Change request not found.');
      await stranger.get(path(cr, `/reviews/${made.id}`)).expect(404);
      const bad = await owner.get(path(cr, `/reviews/${made.id}?format=pdf`)).expect(400);
      expect(bad.body).toEqual(errorShape(400));
    });
  });

  describe('POST .../requested-reviewers (requestReviewersForChangeRequest)', () => {
    it('asks users, updates subject and description, and lists them', async () => {
      const cr = await changeRequest();
      const reader = await t.factories.member(org, 'read');
      const reviewer = await t.factories.member(org, 'review');
      t.clock.advance(1000);
      const res = await owner
        .post(path(cr, '/requested-reviewers'), {
          users: [reader.id, reviewer.id, reader.id],
          subject: 'Ready for review',
          description: DOCUMENT,
        })
        .expect(200);
      expectConforms(res, 'requestReviewersForChangeRequest');
      const users = (res.body as { users: RequestedReviewerBody[] }).users;
      expect(users).toEqual([
        {
          object: 'change-request-requested-reviewer',
          kind: 'user',
          user: expect.objectContaining({ object: 'user', id: reader.id }),
          revision: cr.revision,
          requestedBy: expect.objectContaining({ id: org.owner.id }),
          createdAt: expect.any(String),
        },
        expect.objectContaining({ user: expect.objectContaining({ id: reviewer.id }) }),
      ]);
      const read = await owner.get(path(cr)).expect(200);
      expect(read.body).toEqual(
        expect.objectContaining({ subject: 'Ready for review', description: DOCUMENT }),
      );
      const list = await owner.get(path(cr, '/requested-reviewers')).expect(200);
      expectConforms(list, 'getRequestedReviewersByChangeRequestId');
      expect(list.body.count).toBe(2);
    });

    it("renewing a request outdates the user's review; a review answers the request", async () => {
      const cr = await changeRequest();
      const commenter = await t.factories.member(org, 'comment');
      await requestReviewers(cr, [commenter]);
      const made = await review(cr, commenter.client, { status: 'changes-requested' });
      expect(made.requestedBy?.id).toBe(org.owner.id);
      const listed = await owner.get(path(cr, '/requested-reviewers')).expect(200);
      expectConforms(listed, 'getRequestedReviewersByChangeRequestId');
      expect(listed.body.items[0].review).toEqual({ id: made.id, status: 'changes-requested' });

      const head = await moveHead(cr);
      const renewed = await requestReviewers(cr, [commenter]);
      expect(renewed.users[0]).toEqual(expect.objectContaining({ revision: head }));
      expect(renewed.users[0]).not.toHaveProperty('review');
      const old = await owner.get(path(cr, `/reviews/${made.id}`)).expect(200);
      expect(old.body.outdated).toBe(true);
      const after = await review(cr, commenter.client);
      expect(after.outdated).toBe(false);
    });

    it('answers 400 for empty, unknown, outside, unseeing or creator users, and bad fields', async () => {
      const cr = await changeRequest();
      const outsider = (await t.factories.organization()).owner;
      const guest = await t.factories.member(org, null);
      const cases: [object, string][] = [
        [{}, 'users'],
        [{ users: [] }, 'users must contain at least 1 elements'],
        [{ users: 'x' }, 'users'],
        [{ users: [42] }, 'users'],
        [{ users: ['nobody'] }, 'users: nobody is not a member'],
        [{ users: [outsider.id] }, `users: ${outsider.id} is not a member`],
        [{ users: [guest.id] }, `users: ${guest.id} is not a member`],
        [{ users: [author.id] }, `users: ${author.id} created the change request`],
        [{ users: [org.owner.id], subject: 'x'.repeat(101) }, 'subject'],
        [{ users: [org.owner.id], description: { object: 'doc' } }, 'description'],
        [{ users: [org.owner.id], teams: [] }, 'teams'],
      ];
      for (const [body, message] of cases) {
        const res = await owner.post(path(cr, '/requested-reviewers'), body).expect(400);
        expect(res.body).toEqual(errorShape(400));
        expect(res.body.error.message).toContain(message);
      }
      const list = await owner.get(path(cr, '/requested-reviewers')).expect(200);
      expect(list.body.count).toBe(0);

      // A guest granted the space can see it, and so can be asked.
      await insertGrant(t, org, { space: cr.spaceId }, { userId: guest.id }, 'read');
      await requestReviewers(cr, [guest]);
    });

    it('needs edit (403 for read and comment); 404 for unknown change requests and strangers; 409 once merged', async () => {
      const cr = await changeRequest();
      const reviewer = await t.factories.member(org, 'review');
      for (const role of ['read', 'comment'] as const) {
        const member = await t.factories.asMember(org, role);
        const res = await member
          .post(path(cr, '/requested-reviewers'), { users: [reviewer.id] })
          .expect(403);
        expect(res.body).toEqual(errorShape(403));
      }
      await author.client
        .post(path(cr, '/requested-reviewers'), { users: [reviewer.id] })
        .expect(200);
      for (const id of ['nope', '7']) {
        const res = await owner
          .post(`/v1/spaces/${cr.spaceId}/change-requests/${id}/requested-reviewers`, {
            users: [reviewer.id],
          })
          .expect(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Change request not found.' } });
      }
      await stranger.post(path(cr, '/requested-reviewers'), { users: [reviewer.id] }).expect(404);
      await t.dataSource.query(`UPDATE change_requests SET status = 'merged' WHERE id = $1`, [
        cr.id,
      ]);
      const merged = await owner
        .post(path(cr, '/requested-reviewers'), { users: [reviewer.id] })
        .expect(409);
      expect(merged.body.error.message).toContain('merged');
    });
  });

  describe('GET .../requested-reviewers (getRequestedReviewersByChangeRequestId)', () => {
    it('pages in the order of the requests; readable with read; 400 bad paging; 404 otherwise', async () => {
      const cr = await changeRequest();
      const [a, b, c] = [
        await t.factories.member(org, 'read'),
        await t.factories.member(org, 'read'),
        await t.factories.member(org, 'read'),
      ];
      await requestReviewers(cr, [a]);
      await requestReviewers(cr, [b]);
      await requestReviewers(cr, [c]);
      const reader = await t.factories.asMember(org, 'read');
      const first = await reader.get(path(cr, '/requested-reviewers?limit=2')).expect(200);
      expectConforms(first, 'getRequestedReviewersByChangeRequestId');
      expect(first.body.count).toBe(3);
      expect(first.body.items.map((r: RequestedReviewerBody) => r.user.id)).toEqual([a.id, b.id]);
      const rest = await reader
        .get(path(cr, `/requested-reviewers?limit=2&page=${first.body.next.page}`))
        .expect(200);
      expect(rest.body.items.map((r: RequestedReviewerBody) => r.user.id)).toEqual([c.id]);
      expect(rest.body).not.toHaveProperty('next');

      const bad = await reader.get(path(cr, '/requested-reviewers?limit=5000')).expect(400);
      expect(bad.body).toEqual(errorShape(400));
      const unknown = await owner
        .get(`/v1/spaces/${cr.spaceId}/change-requests/nope/requested-reviewers`)
        .expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Change request not found.' } });
      await owner.get(`/v1/spaces/${cr.spaceId}/change-requests/9/requested-reviewers`).expect(404);
      await stranger.get(path(cr, '/requested-reviewers')).expect(404);
    });
  });

  describe('DELETE .../requested-reviewers/:userId (removeRequestedReviewerFromChangeRequest)', () => {
    it('answers 205 when removed, 204 when not asked; the review stays', async () => {
      const cr = await changeRequest();
      const reader = await t.factories.member(org, 'read');
      await requestReviewers(cr, [reader]);
      const made = await review(cr, reader.client);
      const removed = await owner.delete(path(cr, `/requested-reviewers/${reader.id}`));
      expect(removed.status).toBe(205);
      expectConforms(removed, 'removeRequestedReviewerFromChangeRequest');
      const again = await owner.delete(path(cr, `/requested-reviewers/${reader.id}`));
      expect(again.status).toBe(204);
      expectConforms(again, 'removeRequestedReviewerFromChangeRequest');
      await owner.delete(path(cr, '/requested-reviewers/nobody')).expect(204);
      const list = await owner.get(path(cr, '/requested-reviewers')).expect(200);
      expect(list.body).toEqual({ items: [], count: 0 });
      const kept = await owner.get(path(cr, `/reviews/${made.id}`)).expect(200);
      expect(kept.body.requestedBy.id).toBe(org.owner.id);
      // No longer asked, and without the review role: the reader cannot review again.
      await reader.client.post(path(cr, '/reviews'), { status: 'approved' }).expect(403);
    });

    it('needs edit (403 for read); 404 for unknown change requests and strangers', async () => {
      const cr = await changeRequest();
      const reviewer = await t.factories.member(org, 'review');
      await requestReviewers(cr, [reviewer]);
      const reader = await t.factories.asMember(org, 'read');
      const forbidden = await reader.delete(path(cr, `/requested-reviewers/${reviewer.id}`));
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual(errorShape(403));
      const unknown = await owner
        .delete(`/v1/spaces/${cr.spaceId}/change-requests/5/requested-reviewers/${reviewer.id}`)
        .expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Change request not found.' } });
      await stranger.delete(path(cr, `/requested-reviewers/${reviewer.id}`)).expect(404);
      const list = await owner.get(path(cr, '/requested-reviewers')).expect(200);
      expect(list.body.count).toBe(1);
    });
  });

  describe('GET .../contributors (getContributorsByChangeRequestId)', () => {
    it('counts contributions recorded in a transaction, latest first, in pages', async () => {
      const cr = await changeRequest();
      const contributors = t.bindery.app.get(ChangeRequestContributors);
      const editor = await t.factories.member(org, 'edit');
      const record = (userId: string, type: 'edit' | 'comment') => {
        t.clock.advance(1000);
        return t.dataSource.transaction((manager) =>
          contributors.record(manager, cr.id, userId, type),
        );
      };
      await record(author.id, 'edit');
      await record(editor.id, 'edit');
      await record(author.id, 'edit');
      // A review with a comment counts as a comment of its reviewer.
      t.clock.advance(1000);
      await review(cr, owner, { status: 'approved', comment: { markdown: 'Nice' } });
      await review(cr, owner, { status: 'approved' });
      // A contribution whose transaction rolls back does not count.
      await expect(
        t.dataSource.transaction(async (manager) => {
          await contributors.record(manager, cr.id, editor.id, 'comment');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');

      const res = await owner.get(path(cr, '/contributors')).expect(200);
      expectConforms(res, 'getContributorsByChangeRequestId');
      const body = res.body as PageOf<ContributorBody>;
      expect(body.count).toBe(3);
      expect(body.items.map((c) => [c.user.id, c.actionType, c.count])).toEqual([
        [org.owner.id, 'comment', 1],
        [author.id, 'edit', 2],
        [editor.id, 'edit', 1],
      ]);
      expect(body.items[1]).toEqual({
        user: expect.objectContaining({ object: 'user', id: author.id }),
        count: 2,
        updatedAt: expect.any(String),
        actionType: 'edit',
      });

      const first = await owner.get(path(cr, '/contributors?limit=2')).expect(200);
      expect(first.body.items).toEqual(body.items.slice(0, 2));
      const rest = await owner
        .get(path(cr, `/contributors?limit=2&page=${first.body.next.page}`))
        .expect(200);
      expectConforms(rest, 'getContributorsByChangeRequestId');
      expect(rest.body.items).toEqual(body.items.slice(2));
    });

    it('is readable with read (by number); 404 for unknown change requests and strangers', async () => {
      const cr = await changeRequest();
      const reader = await t.factories.asMember(org, 'read');
      const empty = await reader
        .get(`/v1/spaces/${cr.spaceId}/change-requests/${cr.number}/contributors`)
        .expect(200);
      expect(empty.body).toEqual({ items: [], count: 0 });
      const unknown = await owner
        .get(`/v1/spaces/${cr.spaceId}/change-requests/nope/contributors`)
        .expect(404);
      expectConforms(unknown, 'getContributorsByChangeRequestId');
      await stranger.get(path(cr, '/contributors')).expect(404);
      const bad = await owner.get(path(cr, '/contributors?page=garbage')).expect(400);
      expect(bad.body).toEqual(errorShape(400));
    });
  });

  it("declares GitBook's operationIds with their access in the API document", async () => {
    const res = await t.anonymous.get('/docs-json').expect(200);
    const paths = res.body.paths as Record<
      string,
      Record<string, { operationId: string; 'x-bindery-access': string }>
    >;
    const base = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';
    const declared = (path: string, method: string) => {
      const operation = paths[`${base}${path}`][method];
      return [operation.operationId, operation['x-bindery-access']];
    };
    expect([
      declared('/reviews', 'get'),
      declared('/reviews', 'post'),
      declared('/reviews/{reviewId}', 'get'),
      declared('/requested-reviewers', 'get'),
      declared('/requested-reviewers', 'post'),
      declared('/requested-reviewers/{userId}', 'delete'),
      declared('/contributors', 'get'),
    ]).toEqual([
      ['getReviewsByChangeRequestId', 'changeRequest:view'],
      ['submitChangeRequestReview', 'changeRequest:review'],
      ['getChangeRequestReviewById', 'changeRequest:view'],
      ['getRequestedReviewersByChangeRequestId', 'changeRequest:view'],
      ['requestReviewersForChangeRequest', 'changeRequest:edit'],
      ['removeRequestedReviewerFromChangeRequest', 'changeRequest:edit'],
      ['getContributorsByChangeRequestId', 'changeRequest:view'],
    ]);
  });

  describe('merge-rule reads (ChangeRequestReviewsService)', () => {
    it('approvals: current approvals on a revision; requestedReviewers: requests with answers', async () => {
      const cr = await changeRequest();
      const service = t.bindery.app.get(ChangeRequestReviewsService);
      const [r1, r2, r3] = [
        await t.factories.member(org, 'review'),
        await t.factories.member(org, 'review'),
        await t.factories.member(org, 'read'),
      ];
      await requestReviewers(cr, [r1, r3]);
      await review(cr, r1.client);
      await review(cr, r2.client);
      await review(cr, r2.client, { status: 'changes-requested' });
      await review(cr, owner);

      const read = () =>
        t.dataSource.transaction(async (manager) => ({
          approvals: await service.approvals(manager, cr.id, cr.revision),
          requested: await service.requestedReviewers(manager, cr.id),
        }));
      const before = await read();
      expect([...before.approvals].sort()).toEqual([r1.id, org.owner.id].sort());
      expect(before.requested).toHaveLength(2);
      expect(before.requested.find((r) => r.userId === r1.id)).toEqual({
        userId: r1.id,
        requestedBy: org.owner.id,
        revision: cr.revision,
        createdAt: expect.any(Date),
        review: {
          id: expect.any(String),
          status: 'approved',
          revision: cr.revision,
          outdated: false,
        },
      });
      expect(before.requested.find((r) => r.userId === r3.id)).toEqual(
        expect.objectContaining({ review: null }),
      );

      const head = await moveHead(cr);
      const after = await read();
      expect(after.requested.find((r) => r.userId === r1.id)?.review).toEqual(
        expect.objectContaining({ outdated: true }),
      );
      expect(
        await t.dataSource.transaction((manager) => service.approvals(manager, cr.id, head)),
      ).toEqual([]);
    });
  });
});
