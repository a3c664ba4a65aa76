import { posix } from 'node:path';

/**
 * Page metadata ↔ frontmatter, in GitBook's Git Sync form: `description`, `icon`, `emoji`,
 * `hidden`, `noIndex`, `noRobotsIndex` as they are; `layout` with `{visible}` per element
 * (`title: {visible: false}`), `width`, and `cover: {visible, size}`; the cover image as
 * `cover` (a path relative to the page, or a URL) and `coverY`. Reading checks every value:
 * what does not have the expected type is left out, so a hand-written file cannot store
 * metadata the API could not render.
 */

const TEXT_KEYS = ['description', 'emoji', 'icon'] as const;
const FLAG_KEYS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;
const LAYOUT_FLAGS = [
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
] as const;

type Ref = { kind: string; [key: string]: unknown };

/** Paths of files (relative to the content root) by id, and back. */
export interface FileLocations {
  pathOf(fileId: string): string | undefined;
  idAt(path: string): string | undefined;
}

export function metaToFrontmatter(
  meta: Record<string, unknown>,
  pagePath: string,
  files: FileLocations,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [...TEXT_KEYS, ...FLAG_KEYS]) {
    if (meta[key] !== undefined && meta[key] !== null) out[key] = meta[key];
  }
  const cover = meta.cover as { ref?: Ref; yPos?: unknown } | undefined;
  const coverTarget = cover?.ref ? refTarget(cover.ref, pagePath, files) : undefined;
  if (coverTarget) {
    out.cover = coverTarget;
    if (typeof cover?.yPos === 'number' && cover.yPos !== 0) out.coverY = cover.yPos;
  }
  const layout = meta.layout as Record<string, unknown> | undefined;
  if (layout && typeof layout === 'object') {
    const written: Record<string, unknown> = {};
    if (layout.width === 'wide' || layout.width === 'default') written.width = layout.width;
    if (typeof layout.cover === 'boolean' || typeof layout.coverSize === 'string') {
      written.cover = {
        ...(typeof layout.cover === 'boolean' ? { visible: layout.cover } : {}),
        ...(typeof layout.coverSize === 'string' ? { size: layout.coverSize } : {}),
      };
    }
    for (const key of LAYOUT_FLAGS) {
      if (typeof layout[key] === 'boolean') written[key] = { visible: layout[key] };
    }
    if (Object.keys(written).length > 0) out.layout = written;
  }
  return out;
}

export function frontmatterToMeta(
  frontmatter: Record<string, unknown>,
  pagePath: string,
  files: FileLocations,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (const key of TEXT_KEYS) {
    const value = frontmatter[key];
    if (typeof value === 'string' && value.trim() !== '') meta[key] = value;
  }
  for (const key of FLAG_KEYS) {
    if (typeof frontmatter[key] === 'boolean') meta[key] = frontmatter[key];
  }
  if (typeof frontmatter.cover === 'string' && frontmatter.cover.trim() !== '') {
    const ref = targetRef(frontmatter.cover.trim(), pagePath, files);
    if (ref) {
      const yPos = typeof frontmatter.coverY === 'number' ? frontmatter.coverY : 0;
      meta.cover = { ref, yPos };
    }
  }
  const layout = frontmatter.layout;
  if (typeof layout === 'object' && layout !== null && !Array.isArray(layout)) {
    const read: Record<string, unknown> = {};
    const source = layout as Record<string, unknown>;
    if (source.width === 'wide' || source.width === 'default') read.width = source.width;
    const cover = source.cover;
    const coverVisible = visible(cover);
    if (coverVisible !== undefined) read.cover = coverVisible;
    const size =
      typeof cover === 'object' && cover ? (cover as { size?: unknown }).size : undefined;
    if (size === 'hero' || size === 'full') read.coverSize = size;
    for (const key of LAYOUT_FLAGS) {
      const value = visible(source[key]);
      if (value !== undefined) read[key] = value;
    }
    if (Object.keys(read).length > 0) meta.layout = read;
  }
  return meta;
}

/** `true`, or GitBook's `{visible: true}`. */
function visible(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'object' && value !== null) {
    const flag = (value as { visible?: unknown }).visible;
    if (typeof flag === 'boolean') return flag;
  }
  return undefined;
}

function refTarget(ref: Ref, pagePath: string, files: FileLocations): string | undefined {
  if (ref.kind === 'url' && typeof ref.url === 'string') return ref.url;
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const path = files.pathOf(ref.file);
    return path ? posix.relative(posix.dirname(pagePath), path) : undefined;
  }
  return undefined;
}

function targetRef(target: string, pagePath: string, files: FileLocations): Ref | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return { kind: 'url', url: target };
  let decoded = target;
  try {
    decoded = decodeURI(target);
  } catch {
    return undefined;
  }
  const dir = posix.dirname(pagePath);
  const path = posix.normalize(posix.join(dir === '.' ? '' : dir, decoded)).replace(/^\.\//, '');
  const file = files.idAt(path);
  return file ? { kind: 'file', file } : undefined;
}
