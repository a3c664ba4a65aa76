import { expectConforms } from './helpers/conformance';
import { describeContentPermissions } from './helpers/content-grants';

/**
 * The space permission routes. What they share with the collections' is in
 * describeContentPermissions; here, what only a space shows: grants on the collections above
 * it reach it, and its own grants reach nothing else.
 */
describeContentPermissions({
  resource: 'space',
  permissions: {
    read: { view: true, comment: false, edit: false, admin: false },
    comment: { view: true, comment: true, edit: false, admin: false },
    edit: { view: true, comment: true, edit: true, admin: false },
    admin: { view: true, edit: true, admin: true },
  },
  more: {
    invite: ({ app, space, collection }) => {
      it('gives no access to the collection the space is in', async () => {
        const t = app();
        const org = await t.factories.organization();
        const parent = await collection.create(org);
        const id = await space.create(org, parent);
        const guest = await t.factories.member(org, null);
        await space.invite(org, id, { role: 'admin', users: [guest.id] });
        await guest.client.get(space.paths.content(id)).expect(200);
        await guest.client.get(collection.paths.content(parent)).expect(404);
      });
    },

    listUsers: ({ app, space, collection }) => {
      it('lists no grant of the collection above, and the collection lists none of the space', async () => {
        const t = app();
        const org = await t.factories.organization();
        const parent = await collection.create(org);
        const id = await space.create(org, parent);
        const member = await t.factories.member(org, 'read');
        await collection.invite(org, parent, { role: 'admin', users: [member.id] });
        const res = await org.owner.client.get(space.paths.users(id)).expect(200);
        expectConforms(res, 'listUserPermissionsInSpace');
        expect(res.body).toEqual({ items: [], count: 0 });
        await space.invite(org, id, { role: 'comment', users: [member.id] });
        expect(await collection.userGrants(org, parent)).toEqual({ [member.id]: 'admin' });
      });
    },

    listAggregate: ({ app, space, collection, team, joinInOrder }) => {
      it('lists everyone who can reach the space with its effective role, in pages', async () => {
        const t = app();
        const org = await t.factories.organization();
        const top = await collection.create(org);
        const middle = await collection.create(org, top);
        const id = await space.create(org, middle);
        const reader = await t.factories.member(org, 'read');
        const editor = await t.factories.member(org, 'edit');
        const collectionGuest = await t.factories.member(org, null);
        const teamGuest = await t.factories.member(org, null);
        const spaceGuest = await t.factories.member(org, null);
        const ungranted = await t.factories.member(org, null);
        const users = [
          org.owner,
          reader,
          editor,
          collectionGuest,
          teamGuest,
          spaceGuest,
          ungranted,
        ];
        await joinInOrder(org, users);
        // Grants on the collections above reach the space, to users and to teams' members.
        await collection.invite(org, top, { role: 'create', users: [reader.id] });
        await collection.invite(org, top, { role: 'read', users: [collectionGuest.id] });
        await collection.invite(org, middle, { role: 'comment', users: [collectionGuest.id] });
        const teamId = await team(org, [teamGuest.id, editor.id]);
        await collection.invite(org, middle, { role: 'review', teams: [teamId] });
        await space.invite(org, id, { role: 'read', users: [spaceGuest.id] });
        // Grants on other spaces and collections do not count.
        const sibling = await space.create(org, middle);
        await space.invite(org, sibling, { role: 'admin', users: [editor.id, ungranted.id] });
        await collection.invite(org, await collection.create(org), {
          role: 'admin',
          users: [ungranted.id],
        });

        const path = space.paths.aggregate(id);
        const first = await org.owner.client.get(`${path}?limit=4`).expect(200);
        expectConforms(first, 'listPermissionsAggregateInSpace');
        expect(first.body.count).toBe(6);
        expect(first.body.items).toEqual([
          {
            permission: 'admin',
            user: expect.objectContaining({ object: 'user', id: org.owner.id }),
          },
          {
            permission: 'create',
            user: expect.objectContaining({ id: reader.id, email: reader.email }),
          },
          { permission: 'review', user: expect.objectContaining({ id: editor.id }) },
          { permission: 'comment', user: expect.objectContaining({ id: collectionGuest.id }) },
        ]);
        const second = await org.owner.client
          .get(`${path}?limit=4&page=${encodeURIComponent(first.body.next.page)}`)
          .expect(200);
        expectConforms(second, 'listPermissionsAggregateInSpace');
        expect(second.body.items).toEqual([
          { permission: 'review', user: expect.objectContaining({ id: teamGuest.id }) },
          { permission: 'read', user: expect.objectContaining({ id: spaceGuest.id }) },
        ]);
        expect(second.body.next).toBeUndefined();
      });

      it("agrees with each member's own role on the space", async () => {
        const t = app();
        const org = await t.factories.organization();
        const parent = await collection.create(org);
        const id = await space.create(org, parent);
        const reader = await t.factories.member(org, 'read');
        const commenter = await t.factories.member(org, 'comment');
        const guest = await t.factories.member(org, null);
        const teamGuest = await t.factories.member(org, null);
        await org.owner.client
          .patch(collection.paths.content(parent), { defaultLevel: 'edit' })
          .expect(200);
        await collection.invite(org, parent, { role: 'comment', users: [guest.id] });
        await space.invite(org, id, { role: 'admin', teams: [await team(org, [teamGuest.id])] });
        await space.invite(org, id, { role: 'read', users: [reader.id] });

        const listed = Object.fromEntries(await space.aggregate(org, id));
        expect(Object.keys(listed).sort()).toEqual(
          [org.owner.id, reader.id, commenter.id, guest.id, teamGuest.id].sort(),
        );
        for (const user of [org.owner, reader, commenter, guest, teamGuest]) {
          const res = await org.owner.client
            .get(`/v1/orgs/${org.id}/members/${user.id}/spaces?limit=1000`)
            .expect(200);
          const own = (res.body.items as { permission: string; space: { id: string } }[]).find(
            (item) => item.space.id === id,
          );
          expect([user.id, listed[user.id]]).toEqual([user.id, own?.permission]);
        }
        expect(listed[reader.id]).toBe('edit');
        expect(listed[guest.id]).toBe('comment');
      });
    },
  },
});
