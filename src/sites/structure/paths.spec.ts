import { derivePath } from './paths';

describe('derivePath', () => {
  it('slugs the title', () => {
    expect(derivePath('Getting Started — Ünïcode', 'space', new Set())).toBe(
      'getting-started-ünïcode',
    );
  });

  it('keeps titles in any script', () => {
    expect(derivePath('Документация', 'space', new Set())).toBe('документация');
    expect(derivePath('开发者指南', 'section', new Set())).toBe('开发者指南');
  });

  it('uses the fallback for a title without letters or digits', () => {
    expect(derivePath('🚀 ✨', 'section', new Set())).toBe('section');
    expect(derivePath('', 'space', new Set())).toBe('space');
  });

  it('keeps a title that is literally "page"', () => {
    expect(derivePath('Page', 'space', new Set())).toBe('page');
  });

  it('adds a suffix until unique', () => {
    expect(derivePath('API', 'space', new Set(['api', 'api-2']))).toBe('api-3');
  });

  it('stays within 100 characters with a suffix', () => {
    const long = 'a'.repeat(150);
    const path = derivePath(long, 'space', new Set(['a'.repeat(100)]));
    expect(path).toHaveLength(100);
    expect(path.endsWith('-2')).toBe(true);
  });
});
