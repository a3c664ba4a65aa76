import { createTestApp, TestApp } from './helpers/app';
import type { ChangeRequestBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';
import { changeRequestPath } from './helpers/content';

interface Block {
  object: 'block';
  key: string;
  type: string;
  nodes: unknown[];
}

interface PageVersion {
  title: string | null;
  parentId: string | null;
  fields?: Record<string, unknown>;
}

interface Conflict {
  pageId: string;
  kind: string;
  blockKeys: string[];
  fields?: string[];
  blocks?: {
    key: string;
    base: Block | null;
    changeRequest: Block | null;
    primary: Block | null;
  }[];
  page?: {
    base: PageVersion | null;
    changeRequest: PageVersion | null;
    primary: PageVersion | null;
  };
}

interface Outcome {
  result: string;
  revision: string;
  conflicts?: Conflict[];
}

const paragraph = (key: string, text: string): Block => ({
  object: 'block',
  key,
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

const documentOf = (...texts: [key: string, text: string][]) => ({
  document: { object: 'document', data: {}, nodes: texts.map(([k, text]) => paragraph(k, text)) },
});

const textOf = (block: Block | null | undefined) =>
  (block?.nodes as { leaves: { text: string }[] }[] | undefined)?.[0].leaves[0].text ?? null;

type Space = { spaceId: string; pageId: string; left: string; right: string };

const BASE: [string, string][] = [
  ['p1', 'One.'],
  ['p2', 'Two.'],
  ['p3', 'Three.'],
];

/**
 * Conflicts of change requests with the primary: the versions each conflict carries
 * (mergeChangeRequest, updateChangeRequest, getChangeRequestConflicts), their resolution by
 * updateChangeRequest with `resolutions`, and If-Match / ETag on change requests' merges.
 */
describe('change request conflicts and their resolution', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
  });
  afterAll(() => t.close());

  async function write(spaceId: string, cr: string, changes: object[]) {
    await owner.post(`${changeRequestPath(spaceId, cr)}/content`, { changes }).expect(200);
  }

  /** Without `body`, no body at all: GitBook's updateChangeRequest, an ordinary update. */
  const update = (spaceId: string, cr: string | number, body?: object, as: Client = owner) =>
    as.post(`${changeRequestPath(spaceId, cr)}/update`, body);

  const merge = (spaceId: string, cr: string | number) =>
    owner.post(`${changeRequestPath(spaceId, cr)}/merge`, {});

  const conflictsOf = (spaceId: string, cr: string | number, as: Client = owner) =>
    as.get(`${changeRequestPath(spaceId, cr)}/conflicts`);

  async function changeRequest(spaceId: string, cr: string): Promise<ChangeRequestBody> {
    return (await owner.get(changeRequestPath(spaceId, cr)).expect(200)).body as ChangeRequestBody;
  }

  async function primary(spaceId: string): Promise<string> {
    return ((await owner.get(`/v1/spaces/${spaceId}`).expect(200)).body as { revision: string })
      .revision;
  }

  /** The page's top-level blocks in the change request, or on the primary. */
  async function blocks(spaceId: string, pageId: string, cr?: string): Promise<Block[]> {
    const path = cr
      ? `${changeRequestPath(spaceId, cr)}/content/page/${pageId}`
      : `/v1/spaces/${spaceId}/content/page/${pageId}`;
    const res = await owner.get(path).expect(200);
    return (res.body as { document: { nodes: Block[] } }).document.nodes;
  }

  /** Titles of the pages under the top-level page `title` on the primary (undefined: no such page). */
  async function childTitles(spaceId: string, title: string) {
    const pages = await owner.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
    const parent = (
      pages.body as { pages: { title: string; pages: { title: string }[] }[] }
    ).pages.find((page) => page.title === title);
    return parent?.pages.map((page) => page.title);
  }

  const texts = async (spaceId: string, pageId: string, cr?: string) =>
    (await blocks(spaceId, pageId, cr)).map((block) => textOf(block));

  /**
   * A space with a page "Guide" of keyed paragraphs (`base`) and two empty pages after it,
   * "Left" and "Right", merged into the primary.
   */
  async function spaceWithPage(
    organization: TestOrganization = org,
    base: [string, string][] = BASE,
  ) {
    const { id: spaceId } = await t.factories.space(organization, { title: 'Handbook' });
    await t.factories.changeRequest(organization, spaceId, {
      subject: 'Start',
      changes: [
        { operation: 'insert_page', title: 'Guide', document: documentOf(...base) },
        { operation: 'insert_page', title: 'Left', document: {} },
        { operation: 'insert_page', title: 'Right', document: {} },
      ],
      merge: true,
    });
    const pages = await organization.owner.client
      .get(`/v1/spaces/${spaceId}/content/pages`)
      .expect(200);
    const byTitle = (title: string) =>
      (pages.body as { pages: { id: string; title: string }[] }).pages.find(
        (page) => page.title === title,
      )!.id;
    return { spaceId, pageId: byTitle('Guide'), left: byTitle('Left'), right: byTitle('Right') };
  }

  /**
   * A change request and the primary (through another change request, merged) that both
   * changed the space: `ours` is written on the change request, `theirs` reaches the primary;
   * changes without a `page` are on "Guide".
   */
  async function conflicting(
    ours: object | ((space: Space) => object[]),
    theirs: object | ((space: Space) => object[]),
    base: [string, string][] = BASE,
  ) {
    const space = await spaceWithPage(org, base);
    const changes = (side: object | ((space: Space) => object[])) =>
      typeof side === 'function' ? side(space) : [{ page: space.pageId, ...side }];
    const cr = await t.factories.changeRequest(org, space.spaceId, { subject: 'Mine' });
    await write(space.spaceId, cr.id, changes(ours));
    await t.factories.changeRequest(org, space.spaceId, {
      subject: 'Theirs',
      changes: changes(theirs),
      merge: true,
    });
    return { ...space, cr: cr.id };
  }

  /** Both sides rewrote paragraph p2 (and, with `both`, p1 too). */
  const editedTwice = (both = false) =>
    conflicting(
      {
        operation: 'update_page',
        document: documentOf(both ? ['p1', 'CR one.'] : BASE[0], ['p2', 'CR two.'], BASE[2]),
      },
      {
        operation: 'update_page',
        document: documentOf(
          both ? ['p1', 'Primary one.'] : BASE[0],
          ['p2', 'Primary two.'],
          BASE[2],
        ),
      },
    );

  /** Updates with `resolutions` and checks the outcome: an update revision with two parents. */
  async function resolve(spaceId: string, cr: string, resolutions: object[]) {
    const before = await changeRequest(spaceId, cr);
    const head = await primary(spaceId);
    const res = await update(spaceId, cr, { resolutions });
    expect(res.status).toBe(200);
    expectConforms(res, 'updateChangeRequest');
    const outcome = res.body as Outcome;
    expect(outcome.result).toBe('update');
    const revision = await owner.get(`/v1/spaces/${spaceId}/revisions/${outcome.revision}`);
    expect(revision.status).toBe(200);
    expectConforms(revision, 'getRevisionById');
    expect(revision.body).toMatchObject({ type: 'update', parents: [before.revision, head] });
    const after = await changeRequest(spaceId, cr);
    expect(after.revision).toBe(outcome.revision);
    expect(after.outdated).toBe(false);
    expect((await conflictsOf(spaceId, cr).expect(200)).body).toEqual({ conflicts: [] });
    return outcome;
  }

  async function mergesCleanly(spaceId: string, cr: string) {
    const res = await merge(spaceId, cr);
    expect(res.status).toBe(200);
    expectConforms(res, 'mergeChangeRequest');
    expect((res.body as Outcome).result).toBe('merge');
  }

  describe('the versions a conflict carries', () => {
    it('merge, update and GET …/conflicts answer each side of a block changed twice', async () => {
      const { spaceId, pageId, cr } = await editedTwice();
      const expected = [
        {
          pageId,
          kind: 'block-edit',
          blockKeys: ['p2'],
          blocks: [
            {
              key: 'p2',
              base: paragraph('p2', 'Two.'),
              changeRequest: paragraph('p2', 'CR two.'),
              primary: paragraph('p2', 'Primary two.'),
            },
          ],
        },
      ];
      const merged = await merge(spaceId, cr);
      expect(merged.status).toBe(200);
      expectConforms(merged, 'mergeChangeRequest');
      expect(merged.body).toMatchObject({ result: 'conflicts', revision: await primary(spaceId) });
      expect((merged.body as Outcome).conflicts).toEqual(expected);

      const updated = await update(spaceId, cr);
      expect(updated.status).toBe(200);
      expectConforms(updated, 'updateChangeRequest');
      expect((updated.body as Outcome).conflicts).toEqual(expected);

      const listed = await conflictsOf(spaceId, cr);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ conflicts: expected });
    });

    it('answers the page in each version for a page-level conflict, null where it was deleted', async () => {
      const { spaceId, pageId, cr } = await conflicting(
        { operation: 'delete_page' },
        { operation: 'update_page', title: 'Guide, edited' },
      );
      const res = await conflictsOf(spaceId, cr).expect(200);
      expect((res.body as { conflicts: Conflict[] }).conflicts).toEqual([
        {
          pageId,
          kind: 'delete-edit',
          blockKeys: [],
          page: {
            base: { title: 'Guide', parentId: null },
            changeRequest: null,
            primary: { title: 'Guide, edited', parentId: null },
          },
        },
      ]);
    });

    it('answers no conflicts for a change request that merges cleanly', async () => {
      const { spaceId, pageId } = await spaceWithPage();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Clean' });
      await write(spaceId, cr.id, [
        { operation: 'update_page', page: pageId, document: documentOf(['p1', 'New one.']) },
      ]);
      expect((await conflictsOf(spaceId, cr.number).expect(200)).body).toEqual({ conflicts: [] });
    });

    it('GET …/conflicts needs view access: a reader sees them, other organizations get 404', async () => {
      const { spaceId, cr } = await editedTwice();
      const reader = await t.factories.asMember(org, 'read');
      const res = await conflictsOf(spaceId, cr, reader);
      expect(res.status).toBe(200);
      expect((res.body as { conflicts: Conflict[] }).conflicts).toHaveLength(1);
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await conflictsOf(spaceId, cr, stranger), 404, '');
      expectError(await conflictsOf(spaceId, 'unknownChangeRequest'), 404, 'Change request');
      expectError(await conflictsOf('unknownSpace', cr), 404, '');
    });
  });

  describe('resolving with POST …/update {resolutions}', () => {
    it("keeps the change request's block, then merges it into the primary", async () => {
      const { spaceId, pageId, cr } = await editedTwice();
      await resolve(spaceId, cr, [{ pageId, blockKey: 'p2', keep: 'changeRequest' }]);
      expect(await texts(spaceId, pageId, cr)).toEqual(['One.', 'CR two.', 'Three.']);
      await mergesCleanly(spaceId, cr);
      expect(await texts(spaceId, pageId)).toEqual(['One.', 'CR two.', 'Three.']);
    });

    it("keeps the primary's block", async () => {
      const { spaceId, pageId, cr } = await editedTwice();
      await resolve(spaceId, cr, [{ pageId, blockKey: 'p2', keep: 'primary' }]);
      expect(await texts(spaceId, pageId, cr)).toEqual(['One.', 'Primary two.', 'Three.']);
      await mergesCleanly(spaceId, cr);
      expect(await texts(spaceId, pageId)).toEqual(['One.', 'Primary two.', 'Three.']);
    });

    it('keeps a block merged by hand, and the base for another block', async () => {
      const { spaceId, pageId, cr } = await editedTwice(true);
      await resolve(spaceId, cr, [
        { pageId, blockKey: 'p2', block: paragraph('p2', 'CR and primary two.') },
        { pageId, blockKey: 'p1', keep: 'base' },
      ]);
      expect(await texts(spaceId, pageId, cr)).toEqual(['One.', 'CR and primary two.', 'Three.']);
      await mergesCleanly(spaceId, cr);
      expect(await texts(spaceId, pageId)).toEqual(['One.', 'CR and primary two.', 'Three.']);
    });

    it('keeps a block one side deleted and the other changed', async () => {
      const { spaceId, pageId, cr } = await conflicting(
        { operation: 'update_page', document: documentOf(BASE[0], BASE[2]) },
        { operation: 'update_page', document: documentOf(BASE[0], ['p2', 'Kept two.'], BASE[2]) },
      );
      const listed = (await conflictsOf(spaceId, cr).expect(200)).body as { conflicts: Conflict[] };
      expect(listed.conflicts[0]).toMatchObject({ kind: 'block-delete-edit', blockKeys: ['p2'] });
      expect(listed.conflicts[0].blocks?.[0].changeRequest).toBeNull();
      await resolve(spaceId, cr, [{ pageId, blockKey: 'p2', keep: 'primary' }]);
      expect(await texts(spaceId, pageId, cr)).toEqual(['One.', 'Kept two.', 'Three.']);
      await mergesCleanly(spaceId, cr);
      expect(await texts(spaceId, pageId)).toEqual(['One.', 'Kept two.', 'Three.']);
    });

    it('resolves a title changed on both sides, by choice or by hand', async () => {
      const titled = () =>
        conflicting(
          { operation: 'update_page', title: 'Guide (CR)' },
          { operation: 'update_page', title: 'Guide (primary)' },
        );
      const byChoice = await titled();
      const listed = (await conflictsOf(byChoice.spaceId, byChoice.cr).expect(200)).body as {
        conflicts: Conflict[];
      };
      expect(listed.conflicts).toHaveLength(1);
      const [conflict] = listed.conflicts;
      expect(conflict).toMatchObject({
        kind: 'metadata',
        fields: expect.arrayContaining(['title']),
      });
      expect(conflict.page?.changeRequest?.fields?.title).toBe('Guide (CR)');
      expect(conflict.page?.primary?.fields?.title).toBe('Guide (primary)');
      expect(conflict.page?.base?.fields?.title).toBe('Guide');
      await resolve(byChoice.spaceId, byChoice.cr, [
        { pageId: byChoice.pageId, kind: 'metadata', keep: 'changeRequest' },
      ]);
      await mergesCleanly(byChoice.spaceId, byChoice.cr);
      const page = await owner
        .get(`/v1/spaces/${byChoice.spaceId}/content/page/${byChoice.pageId}`)
        .expect(200);
      expect(page.body).toMatchObject({ title: 'Guide (CR)' });

      const byHand = await titled();
      const fields = Object.fromEntries(
        (conflict.fields ?? []).map((field) => [
          field,
          field === 'title' ? 'Guide (both)' : 'guide-both',
        ]),
      );
      expectError(
        await update(byHand.spaceId, byHand.cr, {
          resolutions: [
            { pageId: byHand.pageId, kind: 'metadata', fields: { ...fields, title: 5 } },
          ],
        }),
        400,
        'fields.title must be a non-empty string',
      );
      await resolve(byHand.spaceId, byHand.cr, [
        { pageId: byHand.pageId, kind: 'metadata', fields },
      ]);
      await mergesCleanly(byHand.spaceId, byHand.cr);
      const merged = await owner
        .get(`/v1/spaces/${byHand.spaceId}/content/page/${byHand.pageId}`)
        .expect(200);
      expect(merged.body).toMatchObject({ title: 'Guide (both)' });
    });

    it('resolves a page deleted in the change request and edited on the primary, either way', async () => {
      const deletedAndEdited = () =>
        conflicting(
          { operation: 'delete_page' },
          { operation: 'update_page', document: documentOf(BASE[0], ['p2', 'Edited two.']) },
        );
      const deleted = await deletedAndEdited();
      await resolve(deleted.spaceId, deleted.cr, [
        { pageId: deleted.pageId, kind: 'delete-edit', keep: 'changeRequest' },
      ]);
      await mergesCleanly(deleted.spaceId, deleted.cr);
      await owner.get(`/v1/spaces/${deleted.spaceId}/content/page/${deleted.pageId}`).expect(404);

      const kept = await deletedAndEdited();
      await resolve(kept.spaceId, kept.cr, [
        { pageId: kept.pageId, kind: 'delete-edit', keep: 'primary' },
      ]);
      expect(await texts(kept.spaceId, kept.pageId, kept.cr)).toEqual(['One.', 'Edited two.']);
      await mergesCleanly(kept.spaceId, kept.cr);
      expect(await texts(kept.spaceId, kept.pageId)).toEqual(['One.', 'Edited two.']);
    });
    it("keeps the primary's place for a block both sides moved", async () => {
      const four: [string, string][] = [...BASE, ['p4', 'Four.']];
      const order = (...keys: string[]) => ({
        operation: 'update_page',
        document: documentOf(...keys.map((key) => four.find(([k]) => k === key)!)),
      });
      const { spaceId, pageId, cr } = await conflicting(
        order('p2', 'p3', 'p4', 'p1'),
        order('p2', 'p3', 'p1', 'p4'),
        four,
      );
      const listed = (await conflictsOf(spaceId, cr).expect(200)).body as { conflicts: Conflict[] };
      expect(listed.conflicts).toMatchObject([{ kind: 'block-move', blockKeys: ['p1'] }]);
      await resolve(spaceId, cr, [{ pageId, blockKey: 'p1', keep: 'primary' }]);
      const expected = ['Two.', 'Three.', 'One.', 'Four.'];
      expect(await texts(spaceId, pageId, cr)).toEqual(expected);
      await mergesCleanly(spaceId, cr);
      expect(await texts(spaceId, pageId)).toEqual(expected);
    });

    it("keeps one side's whole document when its header changed on both sides", async () => {
      const withData = (data: object) => ({
        operation: 'update_page',
        document: { document: { ...documentOf(...BASE).document, data } },
      });
      const { spaceId, pageId, cr } = await conflicting(
        withData({ schemaVersion: 1, origin: 'cr' }),
        withData({ schemaVersion: 1, origin: 'primary' }),
      );
      const listed = (await conflictsOf(spaceId, cr).expect(200)).body as { conflicts: Conflict[] };
      expect(listed.conflicts).toMatchObject([{ kind: 'document', blockKeys: [] }]);
      await resolve(spaceId, cr, [{ pageId, kind: 'document', keep: 'primary' }]);
      await mergesCleanly(spaceId, cr);
      const page = await owner.get(`/v1/spaces/${spaceId}/content/page/${pageId}`).expect(200);
      expect((page.body as { document: { data: object } }).document.data).toEqual({
        schemaVersion: 1,
        origin: 'primary',
      });
    });

    it("keeps the change request's place for a page both sides moved", async () => {
      const into = (parent: 'left' | 'right') => (space: Space) => [
        { operation: 'update_page', page: space.pageId, into: space[parent] },
      ];
      const { spaceId, pageId, left, cr } = await conflicting(into('left'), into('right'));
      const listed = (await conflictsOf(spaceId, cr).expect(200)).body as { conflicts: Conflict[] };
      expect(listed.conflicts).toMatchObject([
        { pageId, kind: 'move-move', page: { changeRequest: { parentId: left } } },
      ]);
      await resolve(spaceId, cr, [{ pageId, kind: 'move-move', keep: 'changeRequest' }]);
      await mergesCleanly(spaceId, cr);
      expect(await childTitles(spaceId, 'Left')).toEqual(['Guide']);
      expect(await childTitles(spaceId, 'Right')).toEqual([]);
    });

    it('resolves a page added under a page the change request deleted, either way', async () => {
      const deletedParent = () =>
        conflicting(
          (space) => [{ operation: 'delete_page', page: space.left }],
          (space) => [{ operation: 'insert_page', title: 'Child', document: {}, into: space.left }],
        );
      const gone = await deletedParent();
      const listed = (await conflictsOf(gone.spaceId, gone.cr).expect(200)).body as {
        conflicts: Conflict[];
      };
      expect(listed.conflicts).toMatchObject([{ kind: 'parent-deleted' }]);
      const child = listed.conflicts[0].pageId;
      await resolve(gone.spaceId, gone.cr, [
        { pageId: child, kind: 'parent-deleted', keep: 'changeRequest' },
      ]);
      await mergesCleanly(gone.spaceId, gone.cr);
      expect(await childTitles(gone.spaceId, 'Left')).toBeUndefined();

      const back = await deletedParent();
      const [conflict] = (
        (await conflictsOf(back.spaceId, back.cr).expect(200)).body as { conflicts: Conflict[] }
      ).conflicts;
      await resolve(back.spaceId, back.cr, [
        { pageId: conflict.pageId, kind: 'parent-deleted', keep: 'primary' },
      ]);
      await mergesCleanly(back.spaceId, back.cr);
      expect(await childTitles(back.spaceId, 'Left')).toEqual(['Child']);
    });
  });

  describe('refusals', () => {
    it('refuses bad resolution shapes with 400, writing nothing', async () => {
      const { spaceId, pageId, cr } = await editedTwice();
      const before = await changeRequest(spaceId, cr);
      const bad: [body: object, message: string][] = [
        [{ resolutions: 'all' }, 'resolutions'],
        [{ resolutions: null }, 'resolutions'],
        [{ resolutions: [{ pageId, blockKey: 'p2', block: null }] }, 'block'],
        [{ resolutions: [{ pageId, kind: 'metadata', fields: null }] }, 'fields'],
        [{ resolutions: [{ blockKey: 'p2', keep: 'primary' }] }, 'pageId'],
        [{ resolutions: [{ pageId, blockKey: 'p2', keep: 'theirs' }] }, 'keep'],
        [{ resolutions: [{ pageId, blockKey: 'p2' }] }, 'one of keep, block or fields'],
        [
          {
            resolutions: [{ pageId, blockKey: 'p2', keep: 'primary', block: paragraph('p2', 'x') }],
          },
          'one of keep, block or fields',
        ],
        [{ resolutions: [{ pageId, keep: 'primary' }] }, 'blockKey'],
        [{ resolutions: [{ pageId, kind: 'sideways', keep: 'primary' }] }, 'kind'],
        [{ resolutions: [{ pageId, blockKey: 'p2', block: { object: 'text' } }] }, 'block'],
        [{ resolutions: [{ pageId, kind: 'metadata', block: paragraph('p2', 'x') }] }, 'blockKey'],
        [{ resolutions: [{ pageId, blockKey: 'p2', fields: { title: 'x' } }] }, 'fields'],
        [{ resolutions: [{ pageId, blockKey: 'p2', keep: 'primary', extra: 1 }] }, 'extra'],
        [
          {
            resolutions: [
              { pageId, blockKey: 'p2', keep: 'primary' },
              { pageId, blockKey: 'p2', keep: 'base' },
            ],
          },
          'both resolve',
        ],
      ];
      for (const [body, message] of bad) {
        const res = await update(spaceId, cr, body);
        expectError(res, 400, message);
      }
      expect(await changeRequest(spaceId, cr)).toEqual(before);
    });

    it('refuses a resolution that names no conflict (409), writing nothing', async () => {
      const { spaceId, pageId, cr } = await editedTwice();
      const before = await changeRequest(spaceId, cr);
      const res = await update(spaceId, cr, {
        resolutions: [
          { pageId, blockKey: 'p2', keep: 'primary' },
          { pageId, blockKey: 'p3', keep: 'primary' },
        ],
      });
      expectError(res, 409, 'names no conflict');
      expect(res.body).toEqual({ error: { code: 409, message: expect.stringContaining('p3') } });
      expect(await changeRequest(spaceId, cr)).toEqual(before);
    });

    it('refuses a partial resolution (409 naming what is left), writing nothing', async () => {
      const { spaceId, pageId, cr } = await editedTwice(true);
      const before = await changeRequest(spaceId, cr);
      const res = await update(spaceId, cr, {
        resolutions: [{ pageId, blockKey: 'p2', keep: 'primary' }],
      });
      expectError(res, 409, `block-edit of block p1 on page ${pageId}`);
      expect(await changeRequest(spaceId, cr)).toEqual(before);
      expect(await texts(spaceId, pageId, cr)).toEqual(['CR one.', 'CR two.', 'Three.']);
    });

    it('refuses unknown change requests and spaces (404), other organizations (404), readers (403)', async () => {
      const { spaceId, pageId, cr } = await editedTwice();
      const body = { resolutions: [{ pageId, blockKey: 'p2', keep: 'primary' }] };
      expectError(await update(spaceId, 'unknownChangeRequest', body), 404, 'Change request');
      expectError(await update('unknownSpace', cr, body), 404, '');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await update(spaceId, cr, body, stranger), 404, '');
      const reader = await t.factories.asMember(org, 'read');
      expectError(await update(spaceId, cr, body, reader), 403, '');
      expect((await changeRequest(spaceId, cr)).outdated).toBe(true);
    });
  });

  describe('If-Match and ETag', () => {
    it("GET carries the change request's head as ETag", async () => {
      const { spaceId, cr } = await editedTwice();
      const res = await owner.get(changeRequestPath(spaceId, cr)).expect(200);
      expectConforms(res, 'getChangeRequestById');
      expect(res.headers.etag).toBe(`"${(res.body as ChangeRequestBody).revision}"`);
    });

    it('merges only the revision If-Match names: 412 when stale, then success with the ETag', async () => {
      const { spaceId, pageId } = await spaceWithPage();
      const cr = await t.factories.changeRequest(org, spaceId, { subject: 'Reviewed' });
      await write(spaceId, cr.id, [
        { operation: 'update_page', page: pageId, document: documentOf(['p1', 'Reviewed.']) },
      ]);
      const reviewed = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200)).headers
        .etag as string;
      await write(spaceId, cr.id, [
        { operation: 'update_page', page: pageId, document: documentOf(['p1', 'Not reviewed.']) },
      ]);
      const head = await primary(spaceId);
      const stale = await owner
        .post(`${changeRequestPath(spaceId, cr.id)}/merge`, {})
        .set('If-Match', reviewed);
      expectError(stale, 412, 'If-Match');
      expect(await primary(spaceId)).toBe(head);

      const current = (await owner.get(changeRequestPath(spaceId, cr.id)).expect(200)).headers
        .etag as string;
      const res = await owner
        .post(`${changeRequestPath(spaceId, cr.id)}/merge`, {})
        .set('If-Match', current);
      expect(res.status).toBe(200);
      expectConforms(res, 'mergeChangeRequest');
      expect(await texts(spaceId, pageId)).toEqual(['Not reviewed.']);
    });

    it('resolves only against the head If-Match names', async () => {
      const { spaceId, pageId, cr } = await editedTwice();
      const seen = (await owner.get(changeRequestPath(spaceId, cr)).expect(200)).headers
        .etag as string;
      await write(spaceId, cr, [
        { operation: 'update_page', page: pageId, title: 'Moved on meanwhile' },
      ]);
      const body = { resolutions: [{ pageId, blockKey: 'p2', keep: 'primary' }] };
      const before = await changeRequest(spaceId, cr);
      expectError(await update(spaceId, cr, body).set('If-Match', seen), 412, 'If-Match');
      expect(await changeRequest(spaceId, cr)).toEqual(before);
      const current = (await owner.get(changeRequestPath(spaceId, cr)).expect(200)).headers
        .etag as string;
      const res = await update(spaceId, cr, body).set('If-Match', current);
      expect(res.body).toMatchObject({ result: 'update' });
    });
  });
});
