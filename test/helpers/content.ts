import { ContentEngine } from '../../src/content-engine/content-engine';
import type { JSONDocument } from '../../src/content-engine/documents/document';
import { Revision } from '../../src/content-engine/entities/revision.entity';
import type { PageChange } from '../../src/content-engine/tree/commit';
import type { RootNode } from '../../src/content-engine/tree/format';
import { getRequired } from '../../src/content-engine/tree/object-store';
import { newId } from '../../src/platform/ids/ids';
import type { Role } from '../../src/platform/policy/roles';
import type { TestApp } from './app';
import type { TestOrganization } from './factories';

/**
 * Commits `changes` on the space's primary revision one second after the last commit and moves
 * the space to the result, straight through the engine (no listener runs: the search index is
 * not updated); returns the new revision.
 */
export async function commitOnSpace(
  t: TestApp,
  spaceId: string,
  changes: PageChange[],
): Promise<Revision> {
  t.clock.advance(1000);
  const engine = t.bindery.app.get(ContentEngine);
  return t.dataSource.transaction(async (manager) => {
    const [row]: { revision_id: string }[] = await manager.query(
      'SELECT revision_id FROM spaces WHERE id = $1 FOR UPDATE',
      [spaceId],
    );
    const parent = await manager.findOneByOrFail(Revision, { id: row.revision_id });
    const revision = await engine.commitRevision(manager, {
      spaceId,
      parent,
      changes,
      authorId: null,
    });
    await manager.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [revision.id, spaceId]);
    return revision;
  });
}

/** Stores `document` as a content object and returns its hash (for a change's `document`). */
export function storeDocument(t: TestApp, document: JSONDocument): Promise<string> {
  return t.bindery.app.get(ContentEngine).put(t.dataSource.manager, 'document', document);
}

/**
 * Adds a reusable content (with `document` as its body, none when null) to the space's primary
 * revision: a new revision whose root lists it, straight through the content store (Bindery
 * has no API that writes reusable contents yet); returns the new revision.
 */
export async function addReusableContentOnSpace(
  t: TestApp,
  spaceId: string,
  reusableContent: { id: string; title: string; document: JSONDocument | null },
): Promise<Revision> {
  t.clock.advance(1000);
  const engine = t.bindery.app.get(ContentEngine);
  return t.dataSource.transaction(async (manager) => {
    const [row]: { revision_id: string }[] = await manager.query(
      'SELECT revision_id FROM spaces WHERE id = $1 FOR UPDATE',
      [spaceId],
    );
    const parent = await manager.findOneByOrFail(Revision, { id: row.revision_id });
    const store = engine.objectStore(manager);
    const root = await getRequired<RootNode>(store, parent.tree);
    const document = reusableContent.document
      ? await store.put('document', reusableContent.document)
      : null;
    const hash = await store.put('reusable-content', {
      id: reusableContent.id,
      title: reusableContent.title,
      ...(document ? { document } : {}),
    });
    const tree = await store.put('tree', {
      ...root,
      reusableContents: [...root.reusableContents, hash],
    });
    const revision = manager.create(Revision, {
      id: newId(),
      spaceId,
      parents: [parent.id],
      type: 'edits',
      tree,
      authorId: null,
      git: null,
      createdAt: t.clock.now(),
    });
    await manager.insert(Revision, revision);
    await manager.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [revision.id, spaceId]);
    return revision;
  });
}

/**
 * A new page titled `title` with a markdown body, as a change of `updateChangeRequestContent`
 * (a change request's content write).
 */
export function insertPage(title: string, markdown: string) {
  return { operation: 'insert_page', title, document: { markdown } };
}

/**
 * A grant written as the permissions API stores it, for tests of other modules that read
 * grants (counts, access) without going through that API.
 */
export async function insertGrant(
  t: TestApp,
  org: TestOrganization,
  target: { space: string } | { collection: string },
  grantee: { userId: string } | { teamId: string },
  role: Role = 'read',
): Promise<void> {
  const [resourceType, resourceId] =
    'space' in target ? ['space', target.space] : ['collection', target.collection];
  await t.dataSource.query(
    `INSERT INTO content_grants
       (id, organization_id, resource_type, resource_id, user_id, team_id, role, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
    [
      newId(),
      org.id,
      resourceType,
      resourceId,
      'userId' in grantee ? grantee.userId : null,
      'teamId' in grantee ? grantee.teamId : null,
      role,
    ],
  );
}

/** The path of a space's change requests, or of one of them (by id or number). */
export const changeRequestPath = (spaceId: string, changeRequest?: string | number) =>
  `/v1/spaces/${spaceId}/change-requests${changeRequest === undefined ? '' : `/${changeRequest}`}`;
