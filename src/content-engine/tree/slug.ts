/** Longest slug accepted (REFERENCE §16), in characters (code points). */
export const MAX_SLUG_LENGTH = 100;

/** Runs of anything but letters, digits and combining marks, in any script. */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;

/** Words of letters, digits and marks joined by single hyphens. */
const SLUG = /^[\p{L}\p{N}\p{M}]+(?:-[\p{L}\p{N}\p{M}]+)*$/u;

/**
 * The one spelling of a text: compatibility forms folded (NFKC: `ﬁ` → `fi`, full-width `Ａ`
 * → `a`), lower case, composed again (lower-casing can decompose, as `İ` does).
 */
function canonical(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** The first `max` characters (code points, so that no surrogate pair is cut). */
function firstChars(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/**
 * A URL slug from a title, as GitBook makes them: letters and digits of every script kept,
 * lower-cased and normalized (NFKC), with every run of anything else a single hyphen
 * ("Größe ändern" → `größe-ändern`, "Установка" → `установка`, "快速开始" → `快速开始`). Browsers
 * percent-encode such paths and routing decodes them, so a slug needs no transliteration; and
 * dropping what is not ASCII, as slugs did before, turned every Cyrillic or Chinese title into
 * the same `page`. A title without letters or digits (emoji only) gives `fallback`.
 */
export function slugify(title: string, fallback = 'page'): string {
  const slug = firstChars(
    canonical(title)
      .replace(SEPARATORS, '-')
      .replace(/^-+|-+$/g, ''),
    MAX_SLUG_LENGTH,
  ).replace(/-+$/, '');
  return slug || fallback;
}

/** A valid slug as given by a client: what `slugify` could produce. */
export function isValidSlug(slug: string): boolean {
  return Array.from(slug).length <= MAX_SLUG_LENGTH && SLUG.test(slug) && canonical(slug) === slug;
}

/**
 * A path segment as a slug may be stored: the same text in composed form, for browsers and
 * file systems (macOS) that send or keep letters decomposed (`a` + U+0308 for `ä`).
 */
export function slugKey(segment: string): string {
  return segment.normalize('NFC');
}

/** `base`, or `base-2`, `base-3`… : the first not in `taken`. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) {
    return base;
  }
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const kept = firstChars(base, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '');
    const candidate = `${kept}${suffix}`;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
}
