import { isValidSlug, slugify, slugKey, uniqueSlug } from './slug';

describe('slugs', () => {
  it.each([
    ['Getting Started', 'getting-started'],
    ['Getting Started!', 'getting-started'],
    ['API v2 — Reference', 'api-v2-reference'],
    ['snake_case and dots.too', 'snake-case-and-dots-too'],
    // German and French keep their letters.
    ['Größe ändern', 'größe-ändern'],
    ['  Héllo, Wörld!  ', 'héllo-wörld'],
    ['Ça coûte très cher', 'ça-coûte-très-cher'],
    // Cyrillic, Chinese, Japanese, Arabic, Korean, Greek.
    ['Установка', 'установка'],
    ['Начало работы', 'начало-работы'],
    ['快速开始', '快速开始'],
    ['日本語', '日本語'],
    ['はじめに：インストール', 'はじめに-インストール'],
    ['البدء السريع', 'البدء-السريع'],
    ['시작하기', '시작하기'],
    ['Ελληνικά Έγγραφα', 'ελληνικά-έγγραφα'],
    // Devanagari keeps its combining vowel signs.
    ['हिन्दी पृष्ठ', 'हिन्दी-पृष्ठ'],
    // Mixed scripts, digits of any script, compatibility forms folded.
    ['Setup: Установка 2 (快速)', 'setup-установка-2-快速'],
    ['Ｆｕｌｌ ｗｉｄｔｈ ①', 'full-width-1'],
    ['ﬁle ﬂow', 'file-flow'],
    ['٣ خطوات', '٣-خطوات'],
    // Nothing to keep.
    ['___', 'page'],
    ['🚀 ✨', 'page'],
    ['', 'page'],
  ])('slugify(%p) = %p', (title, slug) => {
    expect(slugify(title)).toBe(slug);
    expect(isValidSlug(slug)).toBe(true);
  });

  it('takes a given fallback for a title without letters or digits', () => {
    expect(slugify('🎉🎉', 'section')).toBe('section');
    expect(slugify('Über', 'section')).toBe('über');
  });

  it('composes decomposed letters, so both spellings give one slug', () => {
    const decomposed = 'Gro\u0308\u00dfe a\u0308ndern';
    expect(slugify(decomposed)).toBe('größe-ändern');
    expect(slugify(decomposed)).toBe(slugify('Größe ändern'));
    expect(slugKey('a\u0308ndern')).toBe('ändern');
  });

  it('is stable: a slug slugifies to itself', () => {
    for (const title of ['Größe ändern', 'Установка', '快速开始', 'İstanbul', 'ǅungla', 'ΌΣΟΣ']) {
      const slug = slugify(title);
      expect(slugify(slug)).toBe(slug);
      expect(isValidSlug(slug)).toBe(true);
    }
  });

  it('caps slugs at 100 characters without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    expect(slug).toBe('a'.repeat(99));
  });

  it('counts characters, not UTF-16 units, and never cuts a surrogate pair', () => {
    // U+20BB7 𠮷 is one character and two UTF-16 units.
    const slug = slugify('𠮷'.repeat(150));
    expect(Array.from(slug)).toHaveLength(100);
    expect(slug).toBe('𠮷'.repeat(100));
    expect(isValidSlug(slug)).toBe(true);
    expect(isValidSlug('𠮷'.repeat(101))).toBe(false);
  });

  it('suffixes -2, -3… until free', () => {
    expect(uniqueSlug('intro', new Set())).toBe('intro');
    expect(uniqueSlug('intro', new Set(['intro']))).toBe('intro-2');
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2']))).toBe('intro-3');
    expect(uniqueSlug('установка', new Set(['установка']))).toBe('установка-2');
  });

  it('keeps a suffixed slug within 100 characters', () => {
    const base = 'я'.repeat(100);
    const slug = uniqueSlug(base, new Set([base]));
    expect(Array.from(slug)).toHaveLength(100);
    expect(slug.endsWith('-2')).toBe(true);
  });

  it('rejects slugs slugify could not produce', () => {
    expect(isValidSlug('Upper')).toBe(false);
    expect(isValidSlug('Установка')).toBe(false);
    expect(isValidSlug('a--b')).toBe(false);
    expect(isValidSlug('-a')).toBe(false);
    expect(isValidSlug('a b')).toBe(false);
    expect(isValidSlug('a/b')).toBe(false);
    expect(isValidSlug('🚀')).toBe(false);
    expect(isValidSlug('ﬁle')).toBe(false);
    expect(isValidSlug('a\u0308ndern')).toBe(false);
    expect(isValidSlug('')).toBe(false);
  });
});
