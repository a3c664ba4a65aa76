import { canonicalJson } from '../tree/object-store';
import type { FileObject } from '../reads/content-reader';
import type { PageNode, PageType, ReusableContentNode, RootNode } from '../tree/format';

/** A value before and after a change; a side without the value has no key. */
export interface ChangeAttribute {
  before?: unknown;
  after?: unknown;
}

/** GitBook's `…ChangeAttributes`: only the attributes that changed, by name. */
export type ChangeAttributes = Record<string, ChangeAttribute>;

export type VariableValue = RootNode['variables'][string];
export interface VariableChange {
  before?: VariableValue;
  after?: VariableValue;
}

/**
 * The attributes GitBook reports of an edited page, by variant (`RevisionPageDocumentChangeAttributes`,
 * `…Group…`, `…Link…`): any other change of a page (its flags, its children) is not an edit of
 * it. `document` is the hash of the page's document (its `documentId`).
 */
const PAGE_ATTRIBUTES: Record<PageType, readonly string[]> = {
  document: ['title', 'description', 'slug', 'document', 'cover', 'emoji', 'layout', 'variables'],
  group: ['title', 'emoji', 'slug'],
  link: ['title', 'emoji', 'target'],
  computed: ['title', 'emoji'],
};

const same = (a: unknown, b: unknown): boolean =>
  a === b || (a != null && b != null && canonicalJson({ v: a }) === canonicalJson({ v: b }));

/** The listed attributes whose values differ; absent and null values are left out of a side. */
function changed(
  names: readonly string[],
  before: (name: string) => unknown,
  after: (name: string) => unknown,
): ChangeAttributes {
  const attributes: ChangeAttributes = {};
  for (const name of names) {
    const [b, a] = [before(name), after(name)];
    if (same(b ?? null, a ?? null)) continue;
    attributes[name] = { ...(b != null ? { before: b } : {}), ...(a != null ? { after: a } : {}) };
  }
  return attributes;
}

const pageValue = (node: PageNode) => (name: string) =>
  name === 'document' ? node.document : node.meta[name];

/** What changed of a page that is in both trees (attributes of its later variant). */
export function pageAttributes(before: PageNode, after: PageNode): ChangeAttributes {
  return changed(PAGE_ATTRIBUTES[after.type], pageValue(before), pageValue(after));
}

/**
 * What changed of a file (`RevisionFileChangeAttributes`); new bytes are a new `downloadURL`,
 * reported under the name `blob` for the caller to present.
 */
export function fileAttributes(before: FileObject, after: FileObject): ChangeAttributes {
  const value = (file: FileObject) => (name: string) => file[name];
  return changed(
    ['name', 'blob', 'size', 'contentType', 'dimensions'],
    value(before),
    value(after),
  );
}

/** What changed of a reusable content (`RevisionReusableContentChangeAttributes`). */
export function reusableContentAttributes(
  before: ReusableContentNode,
  after: ReusableContentNode,
): ChangeAttributes {
  const value = (content: ReusableContentNode) => (name: string) => content[name];
  return changed(['title', 'document'], value(before), value(after));
}

/** The variables whose value changed, was added or removed. */
export function variablesChange(
  before: RootNode['variables'],
  after: RootNode['variables'],
): Record<string, VariableChange> {
  return changed(
    [...new Set([...Object.keys(before), ...Object.keys(after)])],
    (name) => before[name],
    (name) => after[name],
  ) as Record<string, VariableChange>;
}
