import type { Response } from 'express';

/**
 * The cache tags of GitBook's site renderer: it tags what it caches with them (its own, and
 * those an answer lists in `x-gitbook-cache-tag`), and revalidating a tag drops every entry
 * that carries it.
 */
export const cacheTag = {
  /** A site: its published profile (structure, customization), redirects, search. */
  site: (siteId: string) => `site:${siteId}`,
  /** A space: the space itself (its `revision`, which the renderer then reads). */
  space: (spaceId: string) => `space:${spaceId}`,
};

/** The response header whose comma-separated tags the renderer adds to what it caches. */
export const CACHE_TAG_HEADER = 'x-gitbook-cache-tag';

/** Lists `tags` in the answer's `x-gitbook-cache-tag`. */
export function setCacheTags(response: Response, ...tags: string[]): void {
  response.setHeader(CACHE_TAG_HEADER, tags.join(','));
}
