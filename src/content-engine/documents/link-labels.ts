/*
 * The text GitBook writes for links it names by their target: a content ref's and a card's
 * link, an OpenAPI block's link to its specification, a mention.
 */

/**
 * The last segment of a path, as GitBook titles a link to it (`folder` for `folder/`); a file's
 * download URL (`…/files/sha256/<hash>?…&name=guide.pdf`) is titled by its `name`.
 */
export function lastSegment(url: string): string {
  if (url.startsWith('#')) return url;
  const query = /\?([^#]*)/.exec(url)?.[1];
  const name = query ? new URLSearchParams(query).get('name') : null;
  if (name && /^https?:\/\//.test(url)) return name;
  const path = url.replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1) || path;
}

/** What GitBook writes as a mention's text: `#anchor`, else the last segment of its path. */
export function mentionLabel(url: string): string {
  const hash = url.indexOf('#');
  const label = hash >= 0 ? url.slice(hash) : lastSegment(url.replace(/\?.*$/, ''));
  try {
    return decodeURIComponent(label);
  } catch {
    return label;
  }
}
