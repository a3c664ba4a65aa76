import {
  capturedSuffix,
  encodeSourceSegment,
  isSourcePath,
  leftPaths,
  sourceKey,
  sourceSegments,
  spacePathSource,
} from './redirect-source';

describe('redirect sources', () => {
  it.each([
    ['/old-page', true],
    ['/guides/old-page', true],
    ['/guides/%C3%A9t%C3%A9', true],
    ['/guides/*', true],
    ['/guides*', true],
    ['/a+b~c_d.e', true],
    ['/', false],
    ['old', false],
    ['/guides/', false],
    ['//guides', false],
    ['/*', false],
    ['/gu*ides', false],
    ['/guides/*/more', false],
    ['/été', false],
    ['/a b', false],
    ['/%zz', false],
  ])('%s is a source path: %s', (source, valid) => {
    expect(isSourcePath(source)).toBe(valid);
  });

  it('takes sources of up to 512 characters', () => {
    expect(isSourcePath(`/${'a'.repeat(511)}`)).toBe(true);
    expect(isSourcePath(`/${'a'.repeat(512)}`)).toBe(false);
  });

  it('matches paths whatever their case and escapes', () => {
    const key = sourceKey('/Guides/%C3%89t%C3%A9').key;
    expect(sourceKey('/guides/%c3%a9t%c3%a9').key).toBe(key);
    expect(sourceKey(`/GUIDES/${encodeURIComponent('été')}`).key).toBe(key);
    expect(sourceKey('/gu%69des/%C3%A9t%C3%A9').key).toBe(key);
    expect(sourceKey('/guides/ete').key).not.toBe(key);
    // An escaped slash stays inside its segment.
    expect(sourceKey('/a%2Fb').key).not.toBe(sourceKey('/a/b').key);
  });

  it('keys wildcards apart from the path they extend', () => {
    expect(sourceKey('/old/*')).toEqual({ key: '/old/*', wildcardPrefix: '/old/' });
    expect(sourceKey('/Old*')).toEqual({ key: '/old*', wildcardPrefix: '/old' });
    expect(sourceKey('/old')).toEqual({ key: '/old', wildcardPrefix: null });
  });

  it('captures what follows a wildcard, as written', () => {
    expect(capturedSuffix('/OLD/Deep/Page', '/old/')).toBe('Deep/Page');
    expect(capturedSuffix('/old-Stuff', '/old')).toBe('-Stuff');
    expect(capturedSuffix('/old', '/old')).toBe('');
    expect(capturedSuffix('/old/%C3%A9t%C3%A9', '/old/')).toBe('%C3%A9t%C3%A9');
    expect(capturedSuffix('/%C3%89t%C3%A9/x', sourceKey('/été/*').wildcardPrefix!)).toBe('x');
    expect(capturedSuffix('/older', '/old/')).toBeNull();
    expect(capturedSuffix('/ol', '/old')).toBeNull();
  });

  it('spells page paths as sources do', () => {
    expect(sourceSegments('guides/été/(draft)')).toEqual([
      'guides',
      '%C3%A9t%C3%A9',
      '%28draft%29',
    ]);
    expect(encodeSourceSegment("it's*")).toBe('it%27s%2A');
  });

  it('lists the paths moved pages left, under their site space, but none a page is at now', () => {
    const sources = (prefix: string[], changes: { pageId: string; from: string; to: string }[]) =>
      leftPaths(prefix, changes).map((left) => [left.source, left.pageId]);
    expect(sources(['v2'], [{ pageId: 'a', from: 'guide/install', to: 'install' }])).toEqual([
      ['/v2/guide/install', 'a'],
    ]);
    expect(sources([], [{ pageId: 'a', from: 'Install', to: 'install' }])).toEqual([]);
    // Two pages that swapped places: each path is served again.
    expect(
      sources(
        [],
        [
          { pageId: 'a', from: 'one', to: 'two' },
          { pageId: 'b', from: 'two', to: 'one' },
          { pageId: 'c', from: 'three', to: 'four' },
        ],
      ),
    ).toEqual([['/three', 'c']]);
    expect(sources([], [{ pageId: 'a', from: 'a'.repeat(600), to: 'b' }])).toEqual([]);
  });

  it('makes a source of a path of a space under its site space', () => {
    expect(spacePathSource([], 'old/page')).toEqual({
      source: '/old/page',
      key: '/old/page',
      wildcardPrefix: null,
    });
    expect(spacePathSource(['v2'], '/Guides/Old Name/')).toEqual({
      source: '/v2/Guides/Old%20Name',
      key: '/v2/guides/old%20name',
      wildcardPrefix: null,
    });
    // Text or URL-escaped text: both spell the same source.
    expect(spacePathSource([], 'guides/été')?.source).toBe('/guides/%C3%A9t%C3%A9');
    expect(spacePathSource([], 'guides/%C3%A9t%C3%A9')?.source).toBe('/guides/%C3%A9t%C3%A9');
    expect(spacePathSource([], '100%')?.source).toBe('/100%25');
    // A `*` is a character of the path, never a wildcard.
    expect(spacePathSource([], 'old/*')).toEqual({
      source: '/old/%2A',
      key: '/old/%2A',
      wildcardPrefix: null,
    });
  });

  it('makes no source of a path without segments, with dot segments, or too long', () => {
    for (const path of ['', '/', '//', 'a/../b', './a', 'a'.repeat(509)]) {
      expect(spacePathSource(['v2'], path)).toBeNull();
    }
    expect(spacePathSource(['v2'], 'a'.repeat(508))).not.toBeNull();
  });
});
