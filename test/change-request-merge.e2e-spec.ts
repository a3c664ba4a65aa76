import { createTestApp, TestApp } from './helpers/app';
import type { ChangeRequestBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { insertPage, changeRequestPath } from './helpers/content';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

interface Outcome {
  result: string;
  revision: string;
  conflicts?: { pageId: string; kind: string; blockKeys: string[] }[];
}

interface RevisionBody {
  id: string;
  parents: string[];
  type: string;
}

const PAGES = 10;

/** mergeChangeRequest and updateChangeRequest: three-way merges between a change request and the primary. */
describe('change request merge and update', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
  });
  afterAll(() => t.close());

  async function write(spaceId: string, cr: string, changes: object[], as: Client = owner) {
    await as.post(`${changeRequestPath(spaceId, cr)}/content`, { changes }).expect(200);
  }

  const editPage = (page: string, markdown: string) => ({
    operation: 'update_page',
    page,
    document: { markdown },
  });

  async function merge(spaceId: string, cr: string | number, as: Client = owner) {
    return as.post(`${changeRequestPath(spaceId, cr)}/merge`, {});
  }

  async function markdownOf(spaceId: string, pageId: string, cr?: string): Promise<string> {
    const path = cr
      ? `${changeRequestPath(spaceId, cr)}/content/page/${pageId}`
      : `/v1/spaces/${spaceId}/content/page/${pageId}`;
    const res = await owner.get(`${path}?format=markdown`).expect(200);
    return (res.body as { markdown: string }).markdown;
  }

  async function primary(spaceId: string): Promise<string> {
    const res = await owner.get(`/v1/spaces/${spaceId}`).expect(200);
    return (res.body as { revision: string }).revision;
  }

  async function revision(spaceId: string, revisionId: string): Promise<RevisionBody> {
    const res = await owner.get(`/v1/spaces/${spaceId}/revisions/${revisionId}`).expect(200);
    return res.body as RevisionBody;
  }

  /**
   * A space of PAGES pages, each with two paragraphs, made through a change request and
   * merged; answers the space id and its page ids in order.
   */
  async function spaceWithPages(organization: TestOrganization = org) {
    const client = organization.owner.client;
    const { id: spaceId } = await t.factories.space(organization, { title: 'Handbook' });
    await t.factories.changeRequest(organization, spaceId, {
      subject: 'Edit',
      changes: Array.from({ length: PAGES }, (_, i) =>
        insertPage(
          `Page ${i}`,
          `First paragraph of page ${i}.\n\nSecond paragraph of page ${i}.\n`,
        ),
      ),
      merge: true,
    });
    const pages = await client.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
    const ids = (pages.body as { pages: { id: string; title: string }[] }).pages
      .filter((page) => page.title.startsWith('Page '))
      .map((page) => page.id);
    expect(ids).toHaveLength(PAGES);
    return { spaceId, pageIds: ids };
  }

  describe('POST .../merge (mergeChangeRequest)', () => {
    it("moves the primary to a merge revision holding the change request's edits", async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const before = await primary(spaceId);
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, cr.id, [editPage(pageIds[2], 'Rewritten by the change request.\n')]);

      const res = await merge(spaceId, cr.number);
      expect(res.status).toBe(200);
      expectConforms(res, 'mergeChangeRequest');
      const outcome = res.body as Outcome;
      expect(outcome.result).toBe('merge');

      expect(await primary(spaceId)).toBe(outcome.revision);
      expect(await markdownOf(spaceId, pageIds[2])).toContain('Rewritten by the change request.');
      const merged = await revision(spaceId, outcome.revision);
      expect(merged.type).toBe('merge');
      expect(merged.parents[0]).toBe(before);
      const after = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200))
        .body as ChangeRequestBody;
      expect(after.status).toBe('merged');
      expect(after.revisionMerged).toBe(outcome.revision);
      expect(merged.parents[1]).toBe(after.revision);
      // The search index follows the primary.
      const search = await owner
        .get(`/v1/spaces/${spaceId}/search?query=${encodeURIComponent('Rewritten')}`)
        .expect(200);
      expect((search.body as { items: { id: string }[] }).items.map((hit) => hit.id)).toEqual([
        pageIds[2],
      ]);
    });

    it('merges over a primary that moved since, keeping both sides', async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const first = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      const second = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, first.id, [editPage(pageIds[0], 'Edited first.\n')]);
      await write(spaceId, second.id, [editPage(pageIds[1], 'Edited second.\n')]);
      expect((await merge(spaceId, first.id)).body).toMatchObject({ result: 'merge' });
      expect(
        (
          (await owner.get(changeRequestPath(spaceId, second.id)).expect(200))
            .body as ChangeRequestBody
        ).outdated,
      ).toBe(true);
      expect((await merge(spaceId, second.id)).body).toMatchObject({ result: 'merge' });
      expect(await markdownOf(spaceId, pageIds[0])).toContain('Edited first.');
      expect(await markdownOf(spaceId, pageIds[1])).toContain('Edited second.');
    });

    it('answers conflicts and changes nothing when the same block was changed differently', async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const first = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      const second = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, first.id, [editPage(pageIds[3], 'Mine.\n')]);
      await write(spaceId, second.id, [editPage(pageIds[3], 'Yours.\n')]);
      expect((await merge(spaceId, first.id)).body).toMatchObject({ result: 'merge' });
      const head = await primary(spaceId);

      const res = await merge(spaceId, second.id);
      expect(res.status).toBe(200);
      expectConforms(res, 'mergeChangeRequest');
      const outcome = res.body as Outcome;
      expect(outcome.result).toBe('conflicts');
      expect(outcome.revision).toBe(head);
      expect(outcome.conflicts?.map((conflict) => conflict.pageId)).toEqual([pageIds[3]]);
      expect(await primary(spaceId)).toBe(head);
      expect(await markdownOf(spaceId, pageIds[3])).toContain('Mine.');
      const after = (await owner.get(changeRequestPath(spaceId, second.id)).expect(200))
        .body as ChangeRequestBody;
      expect(after.status).toBe('open');
      expect(after.revisionMerged).toBeUndefined();
    });

    it('merges 10 change requests editing different pages in parallel, one after another', async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const before = await primary(spaceId);
      const crs = [];
      for (const [i, pageId] of pageIds.entries()) {
        const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
        await write(spaceId, cr.id, [editPage(pageId, `Parallel edit ${i}.\n`)]);
        crs.push(cr);
      }
      const responses = await Promise.all(crs.map((cr) => merge(spaceId, cr.id)));
      expect(responses.map((res) => [res.status, (res.body as Outcome).result])).toEqual(
        crs.map(() => [200, 'merge']),
      );
      for (const [i, pageId] of pageIds.entries()) {
        expect(await markdownOf(spaceId, pageId)).toContain(`Parallel edit ${i}.`);
      }
      // The ten merge revisions form one chain from the primary before them.
      const revisions = new Map<string, RevisionBody>();
      for (const res of responses) {
        const { revision: id } = res.body as Outcome;
        revisions.set(id, await revision(spaceId, id));
      }
      let at = await primary(spaceId);
      for (let n = 0; n < PAGES; n++) {
        const merged = revisions.get(at);
        expect(merged?.type).toBe('merge');
        at = merged!.parents[0];
      }
      expect(at).toBe(before);
    });

    it('refuses to merge a merged change request (409) or an archived one (409)', async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, cr.id, [editPage(pageIds[0], 'Once.\n')]);
      expect((await merge(spaceId, cr.id)).status).toBe(200);
      expectError(await merge(spaceId, cr.id), 409, 'merged');

      const archived = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await owner
        .patch(changeRequestPath(spaceId, archived.id), { status: 'archived' })
        .expect(200);
      expectError(await merge(spaceId, archived.id), 409, 'archived');
    });

    it('refuses to merge into a locked space (409)', async () => {
      const { spaceId } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await owner.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' }).expect(200);
      expectError(await merge(spaceId, cr.id), 409, 'locked');
      await owner.patch(`/v1/spaces/${spaceId}`, { editMode: 'live' }).expect(200);
    });

    it('enforces the merge rules, naming the rule that is not met', async () => {
      const rulesOrg = await t.factories.organization();
      const { spaceId, pageIds } = await spaceWithPages(rulesOrg);
      const client = rulesOrg.owner.client;
      await client
        .patch(`/v1/orgs/${rulesOrg.id}`, {
          mergeRules: {
            type: 'rules',
            rules: [
              { rule: 'require_at_least_one_review' },
              { rule: 'require_up_to_date_change_request' },
            ],
          },
        })
        .expect(200);
      const cr = await t.factories.changeRequest(rulesOrg, spaceId, { subject: 'Edit' });
      await write(spaceId, cr.id, [editPage(pageIds[0], 'Reviewed edit.\n')], client);
      expectError(await merge(spaceId, cr.id, client), 403, 'require_at_least_one_review');

      const reviewer = await t.factories.asMember(rulesOrg, 'review');
      await reviewer
        .post(`${changeRequestPath(spaceId, cr.id)}/reviews`, { status: 'approved' })
        .expect(201);
      // The primary moves meanwhile (a space without rules of its own inherits them all).
      await client.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'none' } }).expect(200);
      const other = await t.factories.changeRequest(rulesOrg, spaceId, { subject: 'Edit' });
      await write(spaceId, other.id, [editPage(pageIds[1], 'Moved the primary.\n')], client);
      expect((await merge(spaceId, other.id, client)).status).toBe(200);
      await client.patch(`/v1/spaces/${spaceId}`, { mergeRules: { type: 'inherit' } }).expect(200);

      expectError(await merge(spaceId, cr.id, client), 409, 'require_up_to_date_change_request');
      const update = await client
        .post(`${changeRequestPath(spaceId, cr.id)}/update`, {})
        .expect(200);
      expect((update.body as Outcome).result).toBe('update');
      // The approval was of the revision before the update.
      expectError(await merge(spaceId, cr.id, client), 403, 'require_at_least_one_review');
      await reviewer
        .post(`${changeRequestPath(spaceId, cr.id)}/reviews`, { status: 'approved' })
        .expect(201);
      const res = await merge(spaceId, cr.id, client);
      expect((res.body as Outcome).result).toBe('merge');
    });

    it('needs the edit role: a comment member gets 403', async () => {
      const { spaceId } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      const commenter = await t.factories.asMember(org, 'comment');
      expectError(await merge(spaceId, cr.id, commenter), 403, '');
    });

    it('answers 404 for an unknown change request id or number, and to another organization', async () => {
      const { spaceId } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      expectError(await merge(spaceId, 'unknownchangerequest'), 404, 'Change request');
      expectError(await merge(spaceId, 999), 404, 'Change request');
      const stranger = (await t.factories.organization()).owner.client;
      expect((await merge(spaceId, cr.id, stranger)).status).toBe(404);
    });
  });

  describe('POST .../update (updateChangeRequest)', () => {
    const update = (spaceId: string, cr: string | number, as: Client = owner) =>
      as.post(`${changeRequestPath(spaceId, cr)}/update`, {});

    it("brings the primary's changes into the change request and makes it up to date", async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, cr.id, [editPage(pageIds[0], 'In the change request.\n')]);
      const other = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, other.id, [editPage(pageIds[5], 'On the primary.\n')]);
      await merge(spaceId, other.id);
      const head = await primary(spaceId);
      const before = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200))
        .body as ChangeRequestBody;
      expect(before.outdated).toBe(true);

      const res = await update(spaceId, cr.number);
      expect(res.status).toBe(200);
      expectConforms(res, 'updateChangeRequest');
      const outcome = res.body as Outcome;
      expect(outcome.result).toBe('update');
      const after = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200))
        .body as ChangeRequestBody;
      expect(after.revision).toBe(outcome.revision);
      expect(after.revisionMergedAncestor).toBe(head);
      expect(after.outdated).toBe(false);
      const updated = await revision(spaceId, outcome.revision);
      expect(updated).toMatchObject({ type: 'update', parents: [before.revision, head] });
      expect(await markdownOf(spaceId, pageIds[5], cr.id)).toContain('On the primary.');
      expect(await markdownOf(spaceId, pageIds[0], cr.id)).toContain('In the change request.');
      // The primary is untouched by an update.
      expect(await primary(spaceId)).toBe(head);
      expect(await markdownOf(spaceId, pageIds[0])).not.toContain('In the change request.');

      // Merged afterwards, only the change request's own edit is new to the primary.
      expect((await merge(spaceId, cr.id)).body).toMatchObject({ result: 'merge' });
      expect(await markdownOf(spaceId, pageIds[0])).toContain('In the change request.');
      expect(await markdownOf(spaceId, pageIds[5])).toContain('On the primary.');
    });

    it('answers the current revision when the primary did not move', async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, cr.id, [editPage(pageIds[0], 'Alone.\n')]);
      const current = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200))
        .body as ChangeRequestBody;
      const res = await update(spaceId, cr.id);
      expect(res.body).toEqual({ result: 'update', revision: current.revision });
    });

    it('answers conflicts and leaves the change request as it was', async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, cr.id, [editPage(pageIds[4], 'Ours.\n')]);
      const other = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, other.id, [editPage(pageIds[4], 'Theirs.\n')]);
      await merge(spaceId, other.id);
      const before = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200))
        .body as ChangeRequestBody;

      const res = await update(spaceId, cr.id);
      expectConforms(res, 'updateChangeRequest');
      expect(res.body).toMatchObject({ result: 'conflicts', revision: before.revision });
      const after = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200))
        .body as ChangeRequestBody;
      expect(after).toEqual(before);
    });

    it('refuses a merged change request (409), a read member (403) and strangers (404)', async () => {
      const { spaceId, pageIds } = await spaceWithPages();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Edit' });
      await write(spaceId, cr.id, [editPage(pageIds[0], 'Done.\n')]);
      const reader = await t.factories.asMember(org, 'read');
      expectError(await update(spaceId, cr.id, reader), 403, '');
      const stranger = (await t.factories.organization()).owner.client;
      expect((await update(spaceId, cr.id, stranger)).status).toBe(404);
      expectError(await update(spaceId, 12345), 404, 'Change request');
      await merge(spaceId, cr.id);
      expectError(await update(spaceId, cr.id), 409, 'merged');
    });
  });
});
