import { newId } from '../../platform/ids/ids';
import { flatten } from '../tree/read';
import type { PageMeta } from '../tree/format';
import { hashObject, type ObjectStore } from '../tree/object-store';
import type { SnapshotPage } from '../tree/snapshot';
import type { ContentChange } from '../writes/content-writer';
import {
  apiReferencePageKey,
  apiReferencePages,
  apiReferenceSeed,
  type ApiReferencePage,
  type ApiReferencePageProps,
  type OpenAPIContentRef,
} from './api-reference-pages';

/*
 * API-reference pages are computed pages (GitBook's `computed` page source `builtin:openapi`):
 * each keeps, in its metadata, the source it is computed from
 * (`ComputedContentSourceDocumentOpenAPI`: the specification's content ref and the page's
 * props) and its `computedSeed`, and its document is the one computed from the
 * specification's latest processed version. `apiReferenceChanges` brings such pages of a tree
 * in line with a new version: pages of new tags are inserted, pages of removed tags deleted,
 * and the others get the title, description, icon, document and place the spec now gives them.
 */

export const OPENAPI_COMPUTED_SOURCE = 'builtin:openapi';

/** GitBook's `ComputedContentSourceDocumentOpenAPI`, as Bindery writes it. */
export interface OpenAPIComputedSource {
  type: typeof OPENAPI_COMPUTED_SOURCE;
  dependencies: { spec: { ref: OpenAPIContentRef } };
  props: ApiReferencePageProps;
}

/** The computed source of a page generated from `ref`. */
export function openAPIComputedSource(
  ref: OpenAPIContentRef,
  props: ApiReferencePageProps,
): OpenAPIComputedSource {
  return {
    type: OPENAPI_COMPUTED_SOURCE,
    dependencies: { spec: { ref: { kind: 'openapi', spec: ref.spec } } },
    props: { ...props },
  };
}

/** The metadata a generated page is written with (its subpages aside). */
export function apiReferencePageMeta(ref: OpenAPIContentRef, page: ApiReferencePage): PageMeta {
  return {
    title: page.title,
    ...(page.description !== undefined ? { description: page.description } : {}),
    ...(page.icon !== undefined ? { icon: page.icon } : {}),
    computed: openAPIComputedSource(ref, page.props) as unknown as Record<string, unknown>,
    computedSeed: apiReferenceSeed(page.props),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The spec (as its ref names it) and the page key of a page computed by `builtin:openapi`. */
export function openAPISourceOf(
  meta: Record<string, unknown>,
): { spec: string; key: string } | null {
  const computed = meta.computed;
  if (!isObject(computed) || computed.type !== OPENAPI_COMPUTED_SOURCE) return null;
  const dependency = isObject(computed.dependencies) ? computed.dependencies.spec : undefined;
  const ref = isObject(dependency) ? dependency.ref : undefined;
  const props = computed.props;
  if (!isObject(ref) || typeof ref.spec !== 'string' || !isObject(props)) return null;
  if (props.doc === 'models')
    return { spec: ref.spec, key: apiReferencePageKey({ doc: 'models' }) };
  if (props.doc === 'operations' && typeof props.page === 'string') {
    return { spec: ref.spec, key: apiReferencePageKey({ doc: 'operations', page: props.page }) };
  }
  return null;
}

/** Children lists of the tree as the changes made so far leave them. */
class Siblings {
  private readonly lists = new Map<string | null, string[]>();
  private readonly parents = new Map<string, string | null>();

  constructor(snapshot: Iterable<SnapshotPage>) {
    // Document order lists every parent's children in their order.
    for (const page of snapshot) this.place(page.id, page.parentId, Number.MAX_SAFE_INTEGER);
  }

  of(parent: string | null): string[] {
    let list = this.lists.get(parent);
    if (!list) this.lists.set(parent, (list = []));
    return list;
  }

  parentOf(id: string): string | null | undefined {
    return this.parents.get(id);
  }

  place(id: string, parent: string | null, at: number): void {
    const list = this.of(parent);
    list.splice(Math.min(at, list.length), 0, id);
    this.parents.set(id, parent);
  }

  remove(id: string): void {
    const list = this.of(this.parents.get(id) ?? null);
    list.splice(list.indexOf(id), 1);
    this.parents.delete(id);
  }
}

/** The changes that bring the pages computed from one spec ref in line with `generated`. */
function regenerate(
  ref: OpenAPIContentRef,
  existing: SnapshotPage[],
  keyOf: Map<string, string>,
  generated: ApiReferencePage[],
  siblings: Siblings,
  newPageId: () => string,
): ContentChange[] {
  const changes: ContentChange[] = [];
  const byKey = new Map<string, SnapshotPage>();
  const surplus: SnapshotPage[] = [];
  for (const page of existing) {
    const key = keyOf.get(page.id)!;
    if (byKey.has(key)) surplus.push(page);
    else byKey.set(key, page);
  }
  const ours = new Set(existing.map((page) => page.id));
  // Top-level generated pages go where the first of them is (the top level, or a page).
  const anchor = existing.find((page) => !ours.has(page.parentId ?? ''))?.parentId ?? null;
  const kept = new Set<string>();

  /** Where a page goes: after its previous generated sibling, else before the first of ours. */
  const position = (list: string[], previous: string | undefined): number => {
    if (previous !== undefined && list.includes(previous)) return list.indexOf(previous) + 1;
    const first = list.findIndex((id) => ours.has(id));
    return first === -1 ? list.length : first;
  };

  const visit = (pages: ApiReferencePage[], parent: string | null): void => {
    let previous: string | undefined;
    for (const page of pages) {
      const key = apiReferencePageKey(page.props);
      const meta = apiReferencePageMeta(ref, page);
      const current = byKey.get(key);
      let id: string;
      if (current === undefined) {
        id = newPageId();
        const list = siblings.of(parent);
        const at = position(list, previous);
        changes.push({
          operation: 'insert_page',
          id,
          meta,
          document: page.document,
          into: parent,
          at,
        });
        siblings.place(id, parent, at);
        ours.add(id);
      } else {
        id = current.id;
        kept.add(id);
        const from = siblings.parentOf(id) ?? null;
        const fromIndex = siblings.of(from).indexOf(id);
        siblings.remove(id);
        const list = siblings.of(parent);
        const at = position(list, previous);
        if (from !== parent || fromIndex !== at) {
          changes.push({ operation: 'move_page', page: id, into: parent, at });
        }
        siblings.place(id, parent, at);
        const update = metaUpdate(current.meta, meta);
        if (update) changes.push({ operation: 'update_page', page: id, meta: update });
        if (current.documentHash !== hashObject(page.document)) {
          changes.push({ operation: 'set_document', page: id, document: page.document });
        }
      }
      visit(page.pages, id);
      previous = id;
    }
  };
  visit(generated, anchor);

  // Pages of tags the spec no longer has (and duplicates), unless an ancestor goes with them.
  const removed = new Set(
    [...existing, ...surplus].filter((page) => !kept.has(page.id)).map((page) => page.id),
  );
  const ancestorRemoved = (id: string): boolean => {
    for (let at = siblings.parentOf(id); at; at = siblings.parentOf(at)) {
      if (removed.has(at)) return true;
    }
    return false;
  };
  for (const id of removed) {
    if (!ancestorRemoved(id)) changes.push({ operation: 'delete_page', page: id });
  }
  return changes;
}

const GENERATED_FIELDS = ['title', 'description', 'icon', 'computed', 'computedSeed'] as const;

/** The fields of `next` that differ from `current` (null removes one); null when none does. */
function metaUpdate(
  current: Record<string, unknown>,
  next: PageMeta,
): Record<string, unknown> | null {
  const update: Record<string, unknown> = {};
  for (const field of GENERATED_FIELDS) {
    const value = next[field];
    if (hashObject({ value: current[field] ?? null }) !== hashObject({ value: value ?? null })) {
      update[field] = value ?? null;
    }
  }
  return Object.keys(update).length > 0 ? update : null;
}

/**
 * The changes that bring the pages of tree `tree` computed from the specification (named in
 * their refs by any of `specRefs`: its id and its slug) in line with `document`, its latest
 * processed version: empty when nothing differs, null when no page is computed from it.
 */
export async function apiReferenceChanges(
  store: ObjectStore,
  tree: string,
  specRefs: readonly string[],
  document: unknown,
  newPageId: () => string = newId,
): Promise<ContentChange[] | null> {
  const snapshot = await flatten(store, tree);
  const groups = new Map<string, SnapshotPage[]>();
  const keyOf = new Map<string, string>();
  for (const page of snapshot.values()) {
    if (page.meta.type !== 'document') continue;
    const source = openAPISourceOf(page.meta);
    if (source === null || !specRefs.includes(source.spec)) continue;
    keyOf.set(page.id, source.key);
    if (!groups.has(source.spec)) groups.set(source.spec, []);
    groups.get(source.spec)!.push(page);
  }
  if (groups.size === 0) return null;
  const siblings = new Siblings(snapshot.values());
  const changes: ContentChange[] = [];
  for (const [spec, existing] of groups) {
    const ref: OpenAPIContentRef = { kind: 'openapi', spec };
    const generated = apiReferencePages(ref, document);
    changes.push(...regenerate(ref, existing, keyOf, generated, siblings, newPageId));
  }
  return changes;
}
