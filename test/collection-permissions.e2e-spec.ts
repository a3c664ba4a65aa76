import { expectConforms } from './helpers/conformance';
import { describeContentPermissions } from './helpers/content-grants';

const notAdmin = { view: true, create: false, admin: false };

/**
 * The collection permission routes. What they share with the spaces' is in
 * describeContentPermissions; here, what only a collection shows: its grants reach the
 * collections inside it, and grants on those do not count on it.
 */
describeContentPermissions({
  resource: 'collection',
  // A collection's permissions tell only who may create in it and administer it.
  permissions: {
    read: notAdmin,
    comment: notAdmin,
    edit: notAdmin,
    admin: { view: true, create: true, admin: true },
  },
  more: {
    invite: ({ app, collection, team }) => {
      it("gives a team's members access, also to the sub-collections", async () => {
        const t = app();
        const org = await t.factories.organization();
        const parent = await collection.create(org);
        const child = await collection.create(org, parent);
        const guest = await t.factories.member(org, null);
        const teamId = await team(org, [guest.id]);
        await guest.client.get(collection.paths.content(child)).expect(404);
        await collection.invite(org, parent, { role: 'edit', teams: [teamId] });
        await guest.client.get(collection.paths.content(parent)).expect(200);
        const res = await guest.client.get(collection.paths.content(child)).expect(200);
        expect(res.body.permissions).toMatchObject({ view: true, admin: false });
        expect(await collection.visibleIds(org, guest.client)).toEqual([parent, child]);
      });

      it('passes a grant on a parent collection down to its child', async () => {
        const t = app();
        const org = await t.factories.organization();
        const parent = await collection.create(org);
        const child = await collection.create(org, parent);
        const reader = await t.factories.member(org, 'read');
        const before = await reader.client.get(collection.paths.content(child)).expect(200);
        expect(before.body.permissions.admin).toBe(false);
        await collection.invite(org, parent, { role: 'admin', users: [reader.id] });
        const after = await reader.client.get(collection.paths.content(child)).expect(200);
        expect(after.body.permissions.admin).toBe(true);
        // The child's own grant list holds only its own grants.
        expect(await collection.userGrants(org, child)).toEqual({});
      });
    },

    listAggregate: ({ app, collection, team, joinInOrder }) => {
      it('lists everyone who can reach the collection with its effective role, in pages', async () => {
        const t = app();
        const org = await t.factories.organization();
        const parent = await collection.create(org);
        const id = await collection.create(org, parent);
        const reader = await t.factories.member(org, 'read');
        const editor = await t.factories.member(org, 'edit');
        const guest = await t.factories.member(org, null);
        const teamGuest = await t.factories.member(org, null);
        const ungranted = await t.factories.member(org, null);
        await joinInOrder(org, [org.owner, reader, editor, guest, teamGuest, ungranted]);
        // A grant on the parent reaches the child; a team grant reaches the team's members.
        await collection.invite(org, parent, { role: 'create', users: [reader.id] });
        await collection.invite(org, id, { role: 'comment', users: [guest.id] });
        await collection.invite(org, id, {
          role: 'review',
          teams: [await team(org, [teamGuest.id])],
        });
        // Grants below it and on other collections do not count.
        const other = await collection.create(org);
        const below = await collection.create(org, id);
        await collection.invite(org, other, { role: 'admin', users: [editor.id, ungranted.id] });
        await collection.invite(org, below, { role: 'admin', users: [editor.id, ungranted.id] });

        const path = collection.paths.aggregate(id);
        const first = await org.owner.client.get(`${path}?limit=3`).expect(200);
        expectConforms(first, 'listPermissionsAggregateInCollection');
        expect(first.body.count).toBe(5);
        expect(first.body.items).toEqual([
          {
            permission: 'admin',
            user: expect.objectContaining({ object: 'user', id: org.owner.id }),
          },
          {
            permission: 'create',
            user: expect.objectContaining({ id: reader.id, email: reader.email }),
          },
          { permission: 'edit', user: expect.objectContaining({ id: editor.id }) },
        ]);
        const second = await org.owner.client
          .get(`${path}?limit=3&page=${encodeURIComponent(first.body.next.page)}`)
          .expect(200);
        expectConforms(second, 'listPermissionsAggregateInCollection');
        expect(second.body.count).toBe(5);
        expect(second.body.items).toEqual([
          { permission: 'comment', user: expect.objectContaining({ id: guest.id }) },
          { permission: 'review', user: expect.objectContaining({ id: teamGuest.id }) },
        ]);
        expect(second.body.next).toBeUndefined();
      });
    },
  },
});
