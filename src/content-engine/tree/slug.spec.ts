import { isValidSlug, slugify, uniqueSlug } from './slug';

describe('slugs', () => {
  it.each([
    ['Getting Started', 'getting-started'],
    ['  Héllo, Wörld!  ', 'hello-world'],
    ['API v2 — Reference', 'api-v2-reference'],
    ['___', 'page'],
    ['日本語', 'page'],
  ])('slugify(%p) = %p', (title, slug) => {
    expect(slugify(title)).toBe(slug);
    expect(isValidSlug(slug)).toBe(true);
  });

  it('caps slugs at 100 characters without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    expect(slug).toBe('a'.repeat(99));
  });

  it('suffixes -2, -3… until free', () => {
    expect(uniqueSlug('intro', new Set())).toBe('intro');
    expect(uniqueSlug('intro', new Set(['intro']))).toBe('intro-2');
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2']))).toBe('intro-3');
  });

  it('rejects slugs slugify could not produce', () => {
    expect(isValidSlug('Upper')).toBe(false);
    expect(isValidSlug('a--b')).toBe(false);
    expect(isValidSlug('-a')).toBe(false);
    expect(isValidSlug('')).toBe(false);
  });
});
