import { MAX_SLUG_LENGTH, slugify, uniqueSlug } from '../../content-engine/tree/slug';

/**
 * The path of a new site space or section when none is given: the slug of its title (a space's
 * or the section's), `fallback` when the title has no letter or digit to keep, made unique
 * among `taken` with `-2`, `-3`… .
 */
export function derivePath(title: string, fallback: string, taken: ReadonlySet<string>): string {
  const plain = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const base = /[a-z0-9]/i.test(plain) ? slugify(title) : fallback;
  return uniqueSlug(base.slice(0, MAX_SLUG_LENGTH), taken);
}
