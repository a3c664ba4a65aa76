import { createHash } from 'node:crypto';
import type { JSONDocument } from '../../content-engine/documents/document';
import { documentProblem } from '../../content-engine/documents/document-validation';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import { slugify, uniqueSlug } from '../../content-engine/tree/slug';
import { DomainError } from '../../platform/errors/domain-error';
import { DEFAULT_PAGE_LAYOUT } from '../../spaces/content/content.presenter';

/**
 * A computed revision's pages and files as GitBook answers them (`RevisionPage`,
 * `RevisionFile`), from what a content source's script gave (`InputPage`, `InputFile`): ids
 * are the script's when it gives them, else derived from the request's seed and the page's
 * place, so the same seed computes the same ids; slugs are the script's or made from titles,
 * unique among siblings; a document page's body is its JSON document, or its markdown read
 * as a document (keys derived from the seed too).
 */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A stable id from the seed and a place, as GitBook seeds computed ids. */
export function seededId(seed: string, place: string): string {
  return createHash('sha256')
    .update(`${seed}\u0000${place}`)
    .digest('base64url')
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 20);
}

export interface ComputedRevisionContext {
  seed: string;
  /** The app URL of a page of the space at `path`. */
  appUrl(path: string): string;
}

export async function computedPages(
  input: unknown[],
  context: ComputedRevisionContext,
): Promise<Record<string, unknown>[]> {
  return pagesAt(input, context, '', 'pages');
}

async function pagesAt(
  input: unknown[],
  context: ComputedRevisionContext,
  parentPath: string,
  place: string,
): Promise<Record<string, unknown>[]> {
  const taken = new Set<string>();
  const pages: Record<string, unknown>[] = [];
  for (const [index, page] of input.entries()) {
    const at = `${place}[${index}]`;
    if (!isObject(page)) throw answered(`${at} is not an object`);
    if (typeof page.title !== 'string' || page.title === '') {
      throw answered(`${at}.title must be a non-empty string`);
    }
    const id =
      typeof page.id === 'string' && /^[a-zA-Z0-9]{1,40}$/.test(page.id)
        ? page.id
        : seededId(context.seed, at);
    const type = page.type ?? 'document';
    const common = {
      id,
      title: page.title,
      ...(typeof page.emoji === 'string' ? { emoji: page.emoji } : {}),
      ...(typeof page.icon === 'string' ? { icon: page.icon } : {}),
    };
    if (type === 'link') {
      if (!isObject(page.target)) throw answered(`${at}.target must be a content ref`);
      pages.push({ ...common, kind: 'link', type: 'link', target: page.target });
      continue;
    }
    if (type === 'computed') {
      if (!isObject(page.computed)) throw answered(`${at}.computed must be a content source`);
      pages.push({ ...common, type: 'computed', computed: page.computed });
      continue;
    }
    if (type !== 'document' && type !== 'group') throw answered(`${at}.type is unknown`);
    const given = typeof page.slug === 'string' && page.slug !== '' ? page.slug : null;
    const slug = uniqueSlug(given ?? slugify(page.title), taken);
    taken.add(slug);
    const path = parentPath === '' ? slug : `${parentPath}/${slug}`;
    const children = Array.isArray(page.pages)
      ? await pagesAt(page.pages, context, path, `${at}.pages`)
      : [];
    if (type === 'group') {
      pages.push({ ...common, kind: 'group', type: 'group', slug, path, pages: children });
      continue;
    }
    pages.push({
      ...common,
      kind: 'sheet',
      type: 'document',
      slug,
      path,
      ...(typeof page.description === 'string' ? { description: page.description } : {}),
      urls: { app: context.appUrl(path) },
      pages: children,
      layout: DEFAULT_PAGE_LAYOUT,
      tags: [],
      document: await bodyOf(page, context.seed, at),
    });
  }
  return pages;
}

/** A document page's body: its JSON document, its markdown read, or an empty document. */
async function bodyOf(
  page: Record<string, unknown>,
  seed: string,
  at: string,
): Promise<JSONDocument> {
  if (page.document !== undefined) {
    const problem = documentProblem(page.document, `${at}.document`);
    if (problem) throw answered(problem);
    return page.document as JSONDocument;
  }
  if (typeof page.markdown === 'string') {
    let count = 0;
    return markdownToDocument(page.markdown, {
      newKey: () => seededId(seed, `${at}.key[${(count += 1)}]`).slice(0, 8),
    });
  }
  return { object: 'document', data: {}, nodes: [] };
}

/** The files, each with an id derived from the seed. */
export function computedFiles(input: unknown[], seed: string): Record<string, unknown>[] {
  return input.map((file, index) => {
    const at = `files[${index}]`;
    if (
      !isObject(file) ||
      typeof file.name !== 'string' ||
      typeof file.contentType !== 'string' ||
      typeof file.downloadURL !== 'string' ||
      typeof file.size !== 'number'
    ) {
      throw answered(`${at} needs name, contentType, downloadURL and size`);
    }
    return {
      id: typeof file.id === 'string' ? file.id : seededId(seed, at),
      name: file.name,
      contentType: file.contentType,
      downloadURL: file.downloadURL,
      size: file.size,
      ...(isObject(file.dimensions) ? { dimensions: file.dimensions } : {}),
    };
  });
}

/** What the script answered is not a revision: the caller's request was fine, the source not. */
function answered(problem: string): DomainError {
  return new DomainError(
    'unavailable',
    'IntegrationFailed',
    `The content source answered a page or file that is wrong: ${problem}.`,
  );
}
