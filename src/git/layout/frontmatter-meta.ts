import { posix } from 'node:path';

/**
 * Page metadata ↔ frontmatter, in GitBook's Git Sync form: `description`, `icon`, `emoji`,
 * `hidden`, `noIndex`, `noRobotsIndex` as they are; the cover image as `cover` (a path relative
 * to the page, or a URL), `coverY` and `coverHeight` (the cover's `yPos` and `height`); `layout`
 * with `{visible}` per element (`title: {visible: false}`), `width`, and
 * `cover: {visible, size, mask}`. Reading checks every value: what does not have the expected
 * type is left out, so a hand-written file cannot store metadata the API could not render (the
 * file's own text keeps it, see page-head.ts).
 */

/** The frontmatter keys read into page metadata, in the order GitBook writes them. */
export const GITBOOK_KEY_ORDER = [
  'description',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'icon',
  'emoji',
  'cover',
  'coverY',
  'coverHeight',
  'layout',
] as const;

const TEXT_KEYS = ['description', 'icon', 'emoji'] as const;
const FLAG_KEYS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;
/** `layout` elements GitBook writes as `{visible}`, in its order. */
const LAYOUT_FLAGS = [
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
  'tags',
  'actions',
  'anchors',
] as const;
const COVER_SIZES = ['hero', 'full', 'background'];
const COVER_MASKS = ['none', 'radial'];
const WIDTHS = ['default', 'wide'];

type Ref = { kind: string; [key: string]: unknown };

/** Paths of files (relative to the content root) by id, and back. */
export interface FileLocations {
  pathOf(fileId: string): string | undefined;
  idAt(path: string): string | undefined;
}

/** The frontmatter values of page metadata, keys in GitBook's order. */
export function metaToFrontmatter(
  meta: Record<string, unknown>,
  pagePath: string,
  files: FileLocations,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof meta.description === 'string') out.description = meta.description;
  for (const key of FLAG_KEYS) {
    if (typeof meta[key] === 'boolean') out[key] = meta[key];
  }
  if (typeof meta.icon === 'string') out.icon = meta.icon;
  if (typeof meta.emoji === 'string') out.emoji = meta.emoji;
  const cover = meta.cover as { ref?: Ref; yPos?: unknown; height?: unknown } | undefined;
  if (cover && typeof cover === 'object') {
    const target = cover.ref ? refTarget(cover.ref, pagePath, files) : undefined;
    if (target) out.cover = target;
    // GitBook writes the position of every cover it has, 0 included.
    out.coverY = typeof cover.yPos === 'number' ? cover.yPos : 0;
    if (typeof cover.height === 'number') out.coverHeight = cover.height;
  }
  const layout = meta.layout as Record<string, unknown> | undefined;
  if (layout && typeof layout === 'object' && !Array.isArray(layout)) {
    const written: Record<string, unknown> = {};
    if (WIDTHS.includes(layout.width as string)) written.width = layout.width;
    const coverOptions = {
      ...(typeof layout.cover === 'boolean' ? { visible: layout.cover } : {}),
      ...(COVER_SIZES.includes(layout.coverSize as string) ? { size: layout.coverSize } : {}),
      ...(COVER_MASKS.includes(layout.coverMask as string) ? { mask: layout.coverMask } : {}),
    };
    if (Object.keys(coverOptions).length > 0) written.cover = coverOptions;
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
  const ref =
    typeof frontmatter.cover === 'string' && frontmatter.cover.trim() !== ''
      ? targetRef(frontmatter.cover.trim(), pagePath, files)
      : undefined;
  const yPos = finite(frontmatter.coverY);
  const height = finite(frontmatter.coverHeight);
  // A cover whose image is not in the repository still has its position (GitBook writes
  // `coverY` without `cover` then).
  if (ref || yPos !== undefined || height !== undefined) {
    meta.cover = {
      ...(ref ? { ref } : {}),
      yPos: yPos ?? 0,
      ...(height !== undefined ? { height } : {}),
    };
  }
  const layout = frontmatter.layout;
  if (typeof layout === 'object' && layout !== null && !Array.isArray(layout)) {
    const read: Record<string, unknown> = {};
    const source = layout as Record<string, unknown>;
    if (WIDTHS.includes(source.width as string)) read.width = source.width;
    const cover = source.cover;
    const coverVisible = visible(cover);
    if (coverVisible !== undefined) read.cover = coverVisible;
    if (typeof cover === 'object' && cover !== null) {
      const { size, mask } = cover as { size?: unknown; mask?: unknown };
      if (COVER_SIZES.includes(size as string)) read.coverSize = size;
      if (COVER_MASKS.includes(mask as string)) read.coverMask = mask;
    }
    for (const key of LAYOUT_FLAGS) {
      const value = visible(source[key]);
      if (value !== undefined) read[key] = value;
    }
    if (Object.keys(read).length > 0) meta.layout = read;
  }
  return meta;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
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
