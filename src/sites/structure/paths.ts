import { slugify, uniqueSlug } from '../../content-engine/tree/slug';

/**
 * The path of a new site space or section when none is given: the slug of its title (a space's
 * or the section's, in any script), `fallback` when the title has no letter or digit to keep,
 * made unique among `taken` with `-2`, `-3`… .
 */
export function derivePath(title: string, fallback: string, taken: ReadonlySet<string>): string {
  return uniqueSlug(slugify(title, fallback), taken);
}
