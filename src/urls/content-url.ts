/**
 * What an app URL of Bindery (APP_URL, as `urls.app` names content) points to: a collection
 * (`/o/<org>/c/<id>`), a space (`/o/<org>/s/<id>`), a change request of it
 * (`…/~/changes/<number>`) or a revision (`…/~/revisions/<id>`), then a page path, if any.
 */
export type AppContentUrl =
  | { kind: 'collection'; organizationId: string; collectionId: string }
  | {
      kind: 'space';
      organizationId: string;
      spaceId: string;
      changeRequest?: string;
      revisionId?: string;
      pagePath: string;
    };

/**
 * `url` read as an app URL under `appUrl` (its origin and base path); null when it is not one
 * (another origin, or a path the app does not give content), or undefined when it is under the
 * app but names no content.
 */
export function parseAppContentUrl(url: URL, appUrl: string): AppContentUrl | null | undefined {
  const app = new URL(appUrl);
  if (url.origin !== app.origin) return null;
  const base = app.pathname.replace(/\/+$/, '');
  if (base !== '' && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return null;
  let segments: string[];
  try {
    segments = url.pathname
      .slice(base.length)
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  const [o, organizationId, kind, id, ...rest] = segments;
  if (o !== 'o' || !organizationId || !id) return undefined;
  if (kind === 'c') {
    return rest.length === 0 ? { kind: 'collection', organizationId, collectionId: id } : undefined;
  }
  if (kind !== 's') return undefined;
  const space = { kind: 'space' as const, organizationId, spaceId: id };
  if (rest[0] !== '~') return { ...space, pagePath: rest.join('/') };
  const [, what, ref, ...path] = rest;
  if (!ref) return undefined;
  if (what === 'changes') return { ...space, changeRequest: ref, pagePath: path.join('/') };
  if (what === 'revisions') return { ...space, revisionId: ref, pagePath: path.join('/') };
  return undefined;
}
