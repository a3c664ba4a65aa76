import { ContentGrant } from '../src/collections/entities/content-grant.entity';
import { newId } from '../src/platform/ids/ids';
import type { Role } from '../src/platform/policy/roles';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { PageOf, SpaceBody, SpacePermissions } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

/** What each effective role may do on a space, written out rather than computed. */
const READ: SpacePermissions = {
  view: true,
  access: true,
  admin: false,
  viewInviteLinks: false,
  edit: false,
  triggerGitSync: false,
  comment: false,
  merge: false,
  review: false,
  installIntegration: false,
};
const COMMENT: SpacePermissions = { ...READ, comment: true };
const EDIT: SpacePermissions = {
  ...COMMENT,
  edit: true,
  triggerGitSync: true,
  merge: true,
};
const REVIEW: SpacePermissions = { ...EDIT, review: true };
const ADMIN: SpacePermissions = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
  installIntegration: true,
};
const PERMISSIONS: Record<Role, SpacePermissions> = {
  read: READ,
  comment: COMMENT,
  edit: EDIT,
  review: REVIEW,
  create: REVIEW,
  admin: ADMIN,
};

const spacesPath = (org: TestOrganization) => `/v1/orgs/${org.id}/spaces`;
const spacePath = (id: string) => `/v1/spaces/${id}`;
const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe('spaces', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function grant(
    org: TestOrganization,
    resource: { space: string } | { collection: string },
    grantee: { user: string } | { team: string },
    role: Role,
  ): Promise<void> {
    await t.dataSource.getRepository(ContentGrant).insert({
      id: newId(),
      organizationId: org.id,
      resourceType: 'space' in resource ? 'space' : 'collection',
      resourceId: 'space' in resource ? resource.space : resource.collection,
      userId: 'user' in grantee ? grantee.user : null,
      teamId: 'team' in grantee ? grantee.team : null,
      role,
      createdAt: new Date(),
    });
  }

  /** A team of these members, made through the teams API by the owner. */
  async function team(org: TestOrganization, ...members: TestUser[]): Promise<string> {
    const res = await org.owner.client
      .put(`/v1/orgs/${org.id}/teams`, {
        title: `Team ${newId().slice(0, 8)}`,
        members: members.map((member) => member.id),
      })
      .expect(201);
    return (res.body as { id: string }).id;
  }

  /** The pages at the top of a revision's tree (format 2), as stored: metadata and document. */
  async function topPagesOf(
    revisionId: string,
  ): Promise<{ title?: string; slug?: string; document: string | null }[]> {
    const rows: {
      data: { version: number; pages: { id: string; slug?: string; hash: string }[] };
    }[] = await t.dataSource.query(
      `SELECT o.data FROM revisions r
         JOIN content_objects o ON o.hash = r.tree AND o.kind = 'tree'
        WHERE r.id = $1`,
      [revisionId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].data.version).toBe(2);
    const hashes = rows[0].data.pages.map((ref) => ref.hash);
    if (hashes.length === 0) return [];
    const pages: {
      hash: string;
      data: { meta: { title?: string; slug?: string }; document: string | null };
    }[] = await t.dataSource.query(
      `SELECT hash, data FROM content_objects WHERE kind = 'page' AND hash = ANY($1::char(64)[])`,
      [hashes],
    );
    return hashes.map((hash) => {
      const { meta, document } = pages.find((page) => page.hash === hash)!.data;
      return { ...meta, document };
    });
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  async function spaceCount(org: TestOrganization): Promise<number> {
    const rows: { n: number }[] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM spaces WHERE organization_id = $1`,
      [org.id],
    );
    return rows[0].n;
  }

  describe('POST /v1/orgs/{organizationId}/spaces (createSpace)', () => {
    it('creates a space with GitBook’s defaults, a Location, and a first revision with one empty page', async () => {
      const org = await t.factories.organization();
      const creator = await t.factories.member(org, 'create');
      t.clock.set('2025-03-01T10:00:00.000Z');
      const res = await creator.client.post(spacesPath(org), {}).expect(201);
      expectConforms(res, 'createSpace');
      const body = res.body as SpaceBody;
      expect(body).toEqual({
        object: 'space',
        id: expect.any(String),
        title: 'Untitled',
        emoji: '',
        visibility: 'private',
        createdAt: '2025-03-01T10:00:00.000Z',
        updatedAt: '2025-03-01T10:00:00.000Z',
        editMode: 'live',
        mergeRules: { type: 'inherit' },
        urls: {
          location: `${TEST_PUBLIC_URL}/v1/spaces/${body.id}`,
          app: expect.stringContaining(`/o/${org.id}/s/${body.id}`),
        },
        organization: org.id,
        revision: expect.any(String),
        defaultLevel: 'inherit',
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        permissions: PERMISSIONS.create,
      });
      expect(res.headers.location).toBe(body.urls.location);

      const revisions: { id: string; space_id: string; type: string; parents: string[] }[] =
        await t.dataSource.query(
          `SELECT id, space_id, type, parents FROM revisions WHERE space_id = $1`,
          [body.id],
        );
      expect(revisions).toEqual([
        { id: body.revision, space_id: body.id, type: 'edits', parents: [] },
      ]);
      const pages = await topPagesOf(body.revision);
      expect(pages).toHaveLength(1);
      expect(pages[0]).toEqual({ title: 'Untitled', slug: 'untitled', document: null });

      const read = await creator.client.get(spacePath(body.id)).expect(200);
      expect(read.body).toEqual(body);
    });

    it('takes title, emoji, language and edit mode; empty: true starts with no page', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(spacesPath(org), {
          title: '  Handbook  ',
          emoji: '📘',
          language: 'pt-br',
          editMode: 'locked',
          empty: true,
        })
        .expect(201);
      expectConforms(res, 'createSpace');
      expect(res.body).toMatchObject({
        title: 'Handbook',
        emoji: '📘',
        language: 'pt-br',
        editMode: 'locked',
        permissions: ADMIN,
      });
      expect(await topPagesOf(res.body.revision)).toEqual([]);
      const withPage = await t.factories.later.space(org, { title: 'Other' });
      expect(await topPagesOf(withPage.revision)).toHaveLength(1);
    });

    it('creates a space in a collection (parent), after the collection’s other children', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: col.id });
      const created = await t.factories.later.space(org, { parent: col.id, title: 'Inside' });
      expect(created.parent).toBe(col.id);
      const rows: { id: string }[] = await t.dataSource.query(
        `SELECT id FROM (
           SELECT id, position FROM collections WHERE parent_id = $1
           UNION ALL SELECT id, position FROM spaces WHERE parent_id = $1) children
          ORDER BY position`,
        [col.id],
      );
      expect(rows.map((row) => row.id)).toEqual([sub.id, created.id]);
      const listed = await org.owner.client.get(`/v1/collections/${col.id}/spaces`).expect(200);
      expect(ids(listed.body)).toEqual([created.id]);
    });

    it('answers 400 for a parent that is unknown or of another organization', async () => {
      const org = await t.factories.organization();
      // Same owner: the parent is visible to the caller, only in the wrong organization.
      const otherOrg = await t.factories.organization({ owner: org.owner });
      const foreign = await t.factories.later.collection(otherOrg);
      expectError(
        await org.owner.client.post(spacesPath(org), { parent: foreign.id }),
        400,
        'parent',
      );
      const strangers = await t.factories.later.collection(await t.factories.organization());
      expectError(
        await org.owner.client.post(spacesPath(org), { parent: strangers.id }),
        400,
        'parent',
      );
      expectError(await org.owner.client.post(spacesPath(org), { parent: 'nope' }), 400, 'parent');
      expect(await spaceCount(org)).toBe(0);
    });

    it.each([
      [{ template: { id: 't1' }, empty: true }, 'template, empty'],
      [{ template: { id: 't1' }, computedSource: { type: 'builtin:openapi' } }, 'at most one'],
      [{ computedSource: { type: 'builtin:openapi' }, empty: true }, 'at most one'],
      [{ template: { id: 't1' } }, 'template'],
      [{ computedSource: { type: 'builtin:openapi', props: { models: true } } }, 'computedSource'],
      [{ template: {} }, 'template.id'],
      [{ empty: false }, 'empty'],
      [{ title: 'x'.repeat(51) }, 'title'],
      // 26 hearts are 52 characters for the column (each is U+2764 U+FE0F).
      [{ title: '❤️'.repeat(26) }, 'title must be shorter than or equal to 50 characters'],
      [{ title: 42 }, 'title'],
      [{ language: 'xx' }, 'language'],
      [{ language: 'zh-tw' }, 'language'],
      [{ editMode: 'draft' }, 'editMode'],
      [{ emoji: 'x'.repeat(51) }, 'emoji'],
      [{ visibility: 'public' }, 'visibility'],
    ])('answers 400 to %j, naming %s', async (body, text) => {
      const org = await t.factories.organization();
      expectError(await org.owner.client.post(spacesPath(org), body), 400, text);
      expect(await spaceCount(org)).toBe(0);
    });

    it('accepts a 50-character title', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { title: 'y'.repeat(50) });
      expect(created.title).toBe('y'.repeat(50));
    });

    it('needs the create role at the root: 403 below it, and for a guest', async () => {
      const org = await t.factories.organization();
      for (const role of ['edit', 'review', 'read', null] as const) {
        const client = await t.factories.asMember(org, role);
        expectError(await client.post(spacesPath(org), {}), 403, 'create');
      }
      expect(await spaceCount(org)).toBe(0);
      const admin = await t.factories.asMember(org, 'admin');
      await t.factories.later.space(org, { by: admin });
      expect(await spaceCount(org)).toBe(1);
    });

    it('lets a read member with create granted on a collection create inside it only', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const other = await t.factories.later.collection(org);
      const reader = await t.factories.member(org, 'read');
      await grant(org, { collection: col.id }, { user: reader.id }, 'create');
      const created = await t.factories.later.space(org, { parent: col.id, by: reader.client });
      expect(created.parent).toBe(col.id);
      // The grant reaches the new space: create ranks above review, below admin.
      expect(created.permissions).toEqual(PERMISSIONS.create);
      expectError(await reader.client.post(spacesPath(org), {}), 403, 'create');
      expectError(await reader.client.post(spacesPath(org), { parent: other.id }), 403, 'create');
      const editor = await t.factories.member(org, 'read');
      await grant(org, { collection: col.id }, { user: editor.id }, 'edit');
      expectError(await editor.client.post(spacesPath(org), { parent: col.id }), 403, 'create');
    });

    it('answers 404 to a caller of another organization and for an unknown organization', async () => {
      const org = await t.factories.organization();
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.post(spacesPath(org), {}), 404, 'Organization not found');
      expectError(await org.owner.client.post('/v1/orgs/nope/spaces', {}), 404, 'Organization');
      expect(await spaceCount(org)).toBe(0);
      await t.anonymous.post(spacesPath(org)).send({}).expect(401);
    });
  });

  describe('GET /v1/spaces/{spaceId} (getSpaceById)', () => {
    it.each(['read', 'comment', 'edit', 'review', 'create', 'admin'] as const)(
      'gives a %s member the permissions of that role',
      async (role) => {
        const org = await t.factories.organization();
        const created = await t.factories.later.space(org, { title: 'Docs' });
        const client = await t.factories.asMember(org, role);
        const res = await client.get(spacePath(created.id)).expect(200);
        expectConforms(res, 'getSpaceById');
        expect(res.body).toEqual({ ...created, permissions: PERMISSIONS[role] });
      },
    );

    it('shows a guest only a space granted to it, directly or through a collection above', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const inner = await t.factories.later.collection(org, { parent: top.id });
      const deep = await t.factories.later.space(org, { parent: inner.id });
      const direct = await t.factories.later.space(org);
      const guest = await t.factories.member(org, null);
      expectError(await guest.client.get(spacePath(direct.id)), 404, 'Space not found');
      expectError(await guest.client.get(spacePath(deep.id)), 404, 'Space not found');

      await grant(org, { space: direct.id }, { user: guest.id }, 'comment');
      const res = await guest.client.get(spacePath(direct.id)).expect(200);
      expectConforms(res, 'getSpaceById');
      expect(res.body.permissions).toEqual(COMMENT);

      await grant(org, { collection: top.id }, { user: guest.id }, 'edit');
      const inherited = await guest.client.get(spacePath(deep.id)).expect(200);
      expect(inherited.body.permissions).toEqual(EDIT);
    });

    it('gives a team’s grant to its members', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const guest = await t.factories.member(org, null);
      const teamId = await team(org, guest);
      await guest.client.get(spacePath(created.id)).expect(404);
      await grant(org, { space: created.id }, { team: teamId }, 'review');
      const res = await guest.client.get(spacePath(created.id)).expect(200);
      expect(res.body.permissions).toEqual(REVIEW);
    });

    it('takes the highest of the member role and the grants', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const created = await t.factories.later.space(org, { parent: col.id });
      const editor = await t.factories.member(org, 'edit');
      await grant(org, { space: created.id }, { user: editor.id }, 'read');
      expect((await editor.client.get(spacePath(created.id))).body.permissions).toEqual(EDIT);
      await grant(org, { collection: col.id }, { user: editor.id }, 'admin');
      expect((await editor.client.get(spacePath(created.id))).body.permissions).toEqual(ADMIN);
    });

    it('inherits the default level of the nearest collection above that sets one', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const inner = await t.factories.later.collection(org, { parent: top.id });
      const created = await t.factories.later.space(org, { parent: inner.id });
      const reader = await t.factories.asMember(org, 'read');
      const permissions = async () => (await reader.get(spacePath(created.id))).body.permissions;
      expect(await permissions()).toEqual(READ);

      await org.owner.client
        .patch(`/v1/collections/${top.id}`, { defaultLevel: 'admin' })
        .expect(200);
      await org.owner.client
        .patch(`/v1/collections/${inner.id}`, { defaultLevel: 'edit' })
        .expect(200);
      expect(await permissions()).toEqual(EDIT);

      // The space's own level wins over the collections'; null gives members only their role.
      await org.owner.client.patch(spacePath(created.id), { defaultLevel: 'comment' }).expect(200);
      expect(await permissions()).toEqual(COMMENT);
      await org.owner.client.patch(spacePath(created.id), { defaultLevel: null }).expect(200);
      expect(await permissions()).toEqual(READ);
      await org.owner.client.patch(spacePath(created.id), { defaultLevel: 'inherit' }).expect(200);
      expect(await permissions()).toEqual(EDIT);

      // Default levels are for members: a guest still cannot see the space.
      const guest = await t.factories.asMember(org, null);
      await guest.get(spacePath(created.id)).expect(404);
    });

    it('shows a space in the trash with deletedAt', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      t.clock.set('2025-04-01T00:00:00.000Z');
      await org.owner.client.delete(spacePath(created.id)).expect(204);
      const res = await org.owner.client.get(spacePath(created.id)).expect(200);
      expectConforms(res, 'getSpaceById');
      expect(res.body.deletedAt).toBe('2025-04-01T00:00:00.000Z');
    });

    it('answers 404 for an unknown id, to another organization, and to a disabled member', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      expectError(await org.owner.client.get(spacePath('nope')), 404, 'Space not found');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.get(spacePath(created.id)), 404, 'Space not found');
      const gone = await t.factories.member(org, 'admin');
      await t.dataSource.query(
        `UPDATE organization_members SET disabled = true WHERE organization_id = $1 AND user_id = $2`,
        [org.id, gone.id],
      );
      expectError(await gone.client.get(spacePath(created.id)), 404, 'Space not found');
      await t.anonymous.get(spacePath(created.id)).expect(401);
    });
  });

  describe('GET /v1/orgs/{organizationId}/spaces (listSpacesInOrganizationById)', () => {
    it('lists the live spaces of the organization, oldest first, with the caller’s permissions', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const a = await t.factories.later.space(org, { title: 'A' });
      const b = await t.factories.later.space(org, { title: 'B', parent: col.id });
      const deleted = await t.factories.later.space(org, { title: 'Deleted' });
      const c = await t.factories.later.space(org, { title: 'C' });
      await org.owner.client.delete(spacePath(deleted.id)).expect(204);
      await t.factories.later.space(await t.factories.organization());
      const reader = await t.factories.member(org, 'read');
      await grant(org, { space: b.id }, { user: reader.id }, 'edit');

      const res = await reader.client.get(spacesPath(org)).expect(200);
      expectConforms(res, 'listSpacesInOrganizationById');
      expect(ids(res.body)).toEqual([a.id, b.id, c.id]);
      expect(res.body.count).toBe(3);
      expect(res.body.next).toBeUndefined();
      const items = res.body.items as SpaceBody[];
      expect(items.map((item) => item.permissions)).toEqual([READ, EDIT, READ]);
      expect(items[1]).toEqual({ ...b, permissions: EDIT });
    });

    it('shows a guest only the spaces granted to it, to its team, or through a collection', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const inner = await t.factories.later.collection(org, { parent: top.id });
      const other = await t.factories.later.collection(org);
      const direct = await t.factories.later.space(org);
      const viaTeam = await t.factories.later.space(org);
      const viaCollection = await t.factories.later.space(org, { parent: inner.id });
      await t.factories.later.space(org);
      await t.factories.later.space(org, { parent: other.id });
      const guest = await t.factories.member(org, null);
      const bystander = await t.factories.member(org, null);

      expect((await guest.client.get(spacesPath(org)).expect(200)).body).toEqual({
        items: [],
        count: 0,
      });
      await grant(org, { space: direct.id }, { user: guest.id }, 'read');
      await grant(org, { space: viaTeam.id }, { team: await team(org, guest) }, 'comment');
      await grant(org, { collection: top.id }, { user: guest.id }, 'edit');
      await grant(
        org,
        { space: (await t.factories.later.space(org)).id },
        { user: bystander.id },
        'admin',
      );

      const res = await guest.client.get(spacesPath(org)).expect(200);
      expectConforms(res, 'listSpacesInOrganizationById');
      expect(ids(res.body)).toEqual([direct.id, viaTeam.id, viaCollection.id]);
      expect(res.body.count).toBe(3);
      expect((res.body.items as SpaceBody[]).map((item) => item.permissions)).toEqual([
        READ,
        COMMENT,
        EDIT,
      ]);

      const page1 = await guest.client.get(`${spacesPath(org)}?limit=2`).expect(200);
      expect(ids(page1.body)).toEqual([direct.id, viaTeam.id]);
      expect(page1.body.count).toBe(3);
      const page2 = await guest.client
        .get(`${spacesPath(org)}?limit=2&page=${page1.body.next.page}`)
        .expect(200);
      expect(ids(page2.body)).toEqual([viaCollection.id]);
      expect(page2.body.next).toBeUndefined();
    });

    it('pages with limit and page, without repeating or skipping spaces created at the same time', async () => {
      const org = await t.factories.organization();
      t.clock.set('2025-05-01T00:00:00.000Z');
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await org.owner.client.post(spacesPath(org), {}).expect(201);
        made.push(res.body.id);
      }
      const expected = [...made].sort();
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await org.owner.client
          .get(`${spacesPath(org)}?limit=2${page ? `&page=${page}` : ''}`)
          .expect(200);
        expectConforms(res, 'listSpacesInOrganizationById');
        expect(res.body.count).toBe(5);
        seen.push(...ids(res.body));
        page = res.body.next?.page;
      } while (page);
      expect(seen).toEqual(expected);
    });

    it('answers 400 for a bad limit or page, 404 to another organization and for an unknown one', async () => {
      const org = await t.factories.organization();
      for (const query of ['limit=0', 'limit=1001', 'limit=x']) {
        expectError(await org.owner.client.get(`${spacesPath(org)}?${query}`), 400, 'limit');
      }
      expectError(await org.owner.client.get(`${spacesPath(org)}?page=garbage`), 400, 'page');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.get(spacesPath(org)), 404, 'Organization not found');
      expectError(await org.owner.client.get('/v1/orgs/nope/spaces'), 404, 'Organization');
    });
  });

  describe('PATCH /v1/spaces/{spaceId} (updateSpaceById)', () => {
    const patch = (client: Client, id: string, body: object) => client.patch(spacePath(id), body);

    it('updates title, edit mode and language, as read back, and moves updatedAt', async () => {
      const org = await t.factories.organization();
      t.clock.set('2025-06-01T00:00:00.000Z');
      const created = await t.factories.later.space(org);
      t.clock.set('2025-06-02T00:00:00.000Z');
      const res = await patch(org.owner.client, created.id, {
        title: 'Renamed',
        editMode: 'locked',
        language: 'ja',
      }).expect(200);
      expectConforms(res, 'updateSpaceById');
      expect(res.body).toEqual({
        ...created,
        title: 'Renamed',
        editMode: 'locked',
        language: 'ja',
        updatedAt: '2025-06-02T00:00:00.000Z',
      });
      expect((await org.owner.client.get(spacePath(created.id))).body).toEqual(res.body);
      // Absent fields stay as they are; an empty body changes nothing, not even updatedAt.
      t.clock.set('2025-06-03T00:00:00.000Z');
      const same = await patch(org.owner.client, created.id, {}).expect(200);
      expect(same.body).toEqual(res.body);
      const again = await patch(org.owner.client, created.id, { editMode: 'live' }).expect(200);
      expect(again.body).toMatchObject({
        title: 'Renamed',
        language: 'ja',
        editMode: 'live',
        updatedAt: '2025-06-03T00:00:00.000Z',
      });
      // A blank title falls back to the default, as on creation.
      const blank = await patch(org.owner.client, created.id, { title: '   ' }).expect(200);
      expect(blank.body.title).toBe('Untitled');
    });

    it('sets the default level, back to inherit, and to null', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await patch(org.owner.client, created.id, { defaultLevel: 'edit' }).expect(200);
      expectConforms(res, 'updateSpaceById');
      expect(res.body.defaultLevel).toBe('edit');
      expect((await reader.get(spacePath(created.id))).body.permissions).toEqual(EDIT);

      const inherit = await patch(org.owner.client, created.id, { defaultLevel: 'inherit' });
      expect(inherit.status).toBe(200);
      expect(inherit.body.defaultLevel).toBe('inherit');
      expect((await reader.get(spacePath(created.id))).body.permissions).toEqual(READ);

      const none = await patch(org.owner.client, created.id, { defaultLevel: null }).expect(200);
      expectConforms(none, 'updateSpaceById');
      expect(none.body.defaultLevel).toBeNull();
      expect((await org.owner.client.get(spacePath(created.id))).body.defaultLevel).toBeNull();
    });

    it('recomputes the caller’s own permissions after a change of default level', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const member = await t.factories.member(org, 'read');
      await grant(org, { space: created.id }, { user: member.id }, 'admin');
      const res = await patch(member.client, created.id, { defaultLevel: 'comment' }).expect(200);
      expect(res.body.permissions).toEqual(ADMIN);
    });

    it('sets merge rules: inherit, none, or rules (normalised)', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const reviewer = await t.factories.member(org, 'review');
      const rules = await patch(org.owner.client, created.id, {
        mergeRules: {
          type: 'rules',
          rules: [
            { rule: 'require_at_least_one_review' },
            { rule: 'require_specific_reviewers', users: [reviewer.id, reviewer.id] },
            { rule: 'custom', expression: 'changeRequest.subject != ""' },
          ],
        },
      }).expect(200);
      expectConforms(rules, 'updateSpaceById');
      expect(rules.body.mergeRules).toEqual({
        type: 'rules',
        rules: [
          { rule: 'require_at_least_one_review' },
          { rule: 'require_specific_reviewers', users: [reviewer.id] },
          { rule: 'custom', expression: 'changeRequest.subject != ""' },
        ],
      });
      const none = await patch(org.owner.client, created.id, { mergeRules: { type: 'none' } });
      expect(none.status).toBe(200);
      expect(none.body.mergeRules).toEqual({ type: 'none' });
      const inherit = await patch(org.owner.client, created.id, {
        mergeRules: { type: 'inherit' },
      }).expect(200);
      expectConforms(inherit, 'updateSpaceById');
      expect(inherit.body.mergeRules).toEqual({ type: 'inherit' });
      expect((await org.owner.client.get(spacePath(created.id))).body.mergeRules).toEqual({
        type: 'inherit',
      });
    });

    it.each([
      [{ type: 'sometimes' }, 'mergeRules.type'],
      [{ type: 'rules' }, 'mergeRules.rules'],
      [{ type: 'rules', rules: [{ rule: 'be_nice' }] }, 'mergeRules.rules.0.rule'],
      [{ type: 'rules', rules: [{ rule: 'allow_bypass' }] }, 'mergeRules.rules.0.users'],
      [{ type: 'rules', rules: [{ rule: 'custom', expression: 'x'.repeat(1025) }] }, 'expression'],
      [{ type: 'inherit', rules: [] }, 'mergeRules.rules'],
      [null, 'mergeRules'],
      ['none', 'mergeRules'],
    ])('answers 400 to mergeRules %j', async (mergeRules, text) => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      expectError(await patch(org.owner.client, created.id, { mergeRules }), 400, text);
      expect((await org.owner.client.get(spacePath(created.id))).body.mergeRules).toEqual({
        type: 'inherit',
      });
    });

    it('refuses merge rules naming a user who is not a member', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const outsider = await t.factories.user();
      expectError(
        await patch(org.owner.client, created.id, {
          mergeRules: {
            type: 'rules',
            rules: [{ rule: 'require_specific_reviewers', users: [outsider.id] }],
          },
        }),
        400,
        outsider.id,
      );
    });

    it('lets an emoji and an icon replace each other; both null clear them', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { emoji: '🚀' });
      expect(created.emoji).toBe('🚀');
      const icon = 'https://cdn.example.com/icon.png';

      const withIcon = await patch(org.owner.client, created.id, { icon }).expect(200);
      expectConforms(withIcon, 'updateSpaceById');
      expect(withIcon.body.emoji).toBe('');
      expect(withIcon.body.urls.icon).toBe(icon);

      const withEmoji = await patch(org.owner.client, created.id, { emoji: '🎉' }).expect(200);
      expectConforms(withEmoji, 'updateSpaceById');
      expect(withEmoji.body.emoji).toBe('🎉');
      expect(withEmoji.body.urls.icon).toBeUndefined();

      // Another field alone leaves them alone.
      const titled = await patch(org.owner.client, created.id, { title: 'T' }).expect(200);
      expect(titled.body.emoji).toBe('🎉');

      await patch(org.owner.client, created.id, { icon }).expect(200);
      const cleared = await patch(org.owner.client, created.id, {
        emoji: null,
        icon: null,
      }).expect(200);
      expectConforms(cleared, 'updateSpaceById');
      expect(cleared.body.emoji).toBe('');
      expect(cleared.body.urls.icon).toBeUndefined();
      const row: { emoji: string | null; icon: string | null }[] = await t.dataSource.query(
        `SELECT emoji, icon FROM spaces WHERE id = $1`,
        [created.id],
      );
      expect(row).toEqual([{ emoji: null, icon: null }]);
    });

    it('answers 400 when both emoji and icon are given, or the icon is not a URL', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { emoji: '🚀' });
      expectError(
        await patch(org.owner.client, created.id, {
          emoji: '🎉',
          icon: 'https://cdn.example.com/icon.png',
        }),
        400,
        'emoji, icon',
      );
      expectError(await patch(org.owner.client, created.id, { icon: 'not a url' }), 400, 'icon');
      expectError(
        await patch(org.owner.client, created.id, { icon: 'ftp://example.com/i.png' }),
        400,
        'icon',
      );
      expectError(
        await patch(org.owner.client, created.id, { emoji: 'x'.repeat(51) }),
        400,
        'emoji',
      );
      expect((await org.owner.client.get(spacePath(created.id))).body.emoji).toBe('🚀');
    });

    it('allows in-collection visibility only for a space inside a collection', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const root = await t.factories.later.space(org);
      const inside = await t.factories.later.space(org, { parent: col.id });
      expectError(
        await patch(org.owner.client, root.id, { visibility: 'in-collection' }),
        400,
        'visibility',
      );
      expect((await org.owner.client.get(spacePath(root.id))).body.visibility).toBe('private');
      const res = await patch(org.owner.client, inside.id, {
        visibility: 'in-collection',
      }).expect(200);
      expectConforms(res, 'updateSpaceById');
      expect(res.body.visibility).toBe('in-collection');
      const published = await patch(org.owner.client, root.id, { visibility: 'public' });
      expect(published.status).toBe(200);
      expect(published.body.visibility).toBe('public');
    });

    it.each([
      [{ title: 'x'.repeat(51) }, 'title'],
      [{ title: null }, 'title'],
      [{ editMode: 'draft' }, 'editMode'],
      [{ editMode: null }, 'editMode'],
      [{ language: 'xx' }, 'language'],
      [{ language: null }, 'language'],
      [{ defaultLevel: 'owner' }, 'defaultLevel'],
      [{ visibility: 'secret' }, 'visibility'],
      [{ visibility: null }, 'visibility'],
      [{ parent: 'c1' }, 'parent'],
    ])('answers 400 to %j, naming %s', async (body, text) => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { title: 'Kept' });
      expectError(await patch(org.owner.client, created.id, body), 400, text);
      const read = await org.owner.client.get(spacePath(created.id)).expect(200);
      expect(read.body).toEqual(created);
    });

    it('answers 403 below admin on the space, and lets a space admin grant through', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      for (const role of ['create', 'edit', 'read'] as const) {
        const client = await t.factories.asMember(org, role);
        expectError(await patch(client, created.id, { title: 'No' }), 403, 'admin');
      }
      const granted = await t.factories.member(org, 'read');
      await grant(org, { space: created.id }, { user: granted.id }, 'admin');
      const res = await patch(granted.client, created.id, { title: 'Yes' }).expect(200);
      expect(res.body.title).toBe('Yes');
    });

    it('answers 404 for an unknown or deleted space and to another organization', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await patch(stranger, created.id, { title: 'No' }), 404, 'Space not found');
      expectError(await patch(org.owner.client, 'nope', { title: 'No' }), 404, 'Space not found');
      const guest = await t.factories.asMember(org, null);
      expectError(await patch(guest, created.id, { title: 'No' }), 404, 'Space not found');
      await org.owner.client.delete(spacePath(created.id)).expect(204);
      expectError(
        await patch(org.owner.client, created.id, { title: 'No' }),
        404,
        'Space not found',
      );
      const read = await org.owner.client.get(spacePath(created.id)).expect(200);
      expect(read.body.title).toBe(created.title);
    });
  });

  describe('pagination over 2,500 spaces', () => {
    const TOTAL = 2500;
    let org: TestOrganization;
    let expected: string[];

    beforeAll(async () => {
      org = await t.factories.organization();
      // One shared tree, 2,500 spaces and their first revisions, in one transaction (the
      // space → revision foreign key is checked at commit). Creation times repeat every 40
      // spaces, so most pages start inside a run of equal timestamps and the id decides.
      await t.dataSource.transaction(async (manager) => {
        const tree = 'b'.repeat(64);
        await manager.query(
          `INSERT INTO content_objects (hash, kind, data, created_at)
           VALUES ($1, 'tree', $2::jsonb, now()) ON CONFLICT (hash) DO NOTHING`,
          [
            tree,
            JSON.stringify({
              version: 1,
              pages: [],
              files: [],
              reusableContents: [],
              variables: {},
            }),
          ],
        );
        await manager.query(
          `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, icon, visibility,
                               edit_mode, default_level, language, merge_rules, revision_id,
                               position, created_by, created_at, updated_at)
           SELECT 'bulk' || substr(md5(i::text), 1, 20), $1, NULL, 'Bulk ' || i, NULL, NULL,
                  'private', 'live', 'inherit', NULL, '{"type":"inherit"}'::jsonb,
                  'rev' || substr(md5(i::text), 1, 20), i * 1024, $2,
                  timestamptz '2024-01-01T00:00:00Z' + (i % 40) * interval '1 second',
                  timestamptz '2024-01-01T00:00:00Z'
             FROM generate_series(1, $3::int) AS i`,
          [org.id, org.owner.id, TOTAL],
        );
        await manager.query(
          `INSERT INTO revisions (id, space_id, parents, type, tree, author_id, created_at)
           SELECT 'rev' || substr(md5(i::text), 1, 20), 'bulk' || substr(md5(i::text), 1, 20),
                  '{}', 'edits', $1, $2, timestamptz '2024-01-01T00:00:00Z'
             FROM generate_series(1, $3::int) AS i`,
          [tree, org.owner.id, TOTAL],
        );
      });
      const rows: { id: string }[] = await t.dataSource.query(
        `SELECT id FROM spaces WHERE organization_id = $1 ORDER BY created_at, id`,
        [org.id],
      );
      expected = rows.map((row) => row.id);
    });

    it.each([
      [100, 25],
      [1000, 3],
    ])('walks every page with limit %i (%i pages): no gap, no repeat', async (limit, pages) => {
      expect(expected).toHaveLength(TOTAL);
      const reader = await t.factories.asMember(org, 'read');
      const seen: string[] = [];
      let page: string | undefined;
      let requests = 0;
      do {
        const res = await reader
          .get(`${spacesPath(org)}?limit=${limit}${page ? `&page=${page}` : ''}`)
          .expect(200);
        requests += 1;
        expect(res.body.count).toBe(TOTAL);
        const body = res.body as PageOf<SpaceBody>;
        expect(body.items.length).toBe(Math.min(limit, TOTAL - seen.length));
        seen.push(...ids(body));
        page = body.next?.page;
        if (!page) expect(body).not.toHaveProperty('next');
      } while (page && requests <= pages);
      expect(requests).toBe(pages);
      expect(new Set(seen).size).toBe(TOTAL);
      expect(seen).toEqual(expected);
    });

    it('answers pages that conform, with the caller’s permissions', async () => {
      const res = await org.owner.client.get(`${spacesPath(org)}?limit=1000`).expect(200);
      expectConforms(res, 'listSpacesInOrganizationById');
      expect((res.body as PageOf<SpaceBody>).items.every((item) => item.permissions.admin)).toBe(
        true,
      );
    });
  });
});
