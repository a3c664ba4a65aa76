import { frontmatterToMeta, metaToFrontmatter } from './frontmatter-meta';

const files = {
  pathOf: (id: string) => (id === 'f1' ? '.gitbook/assets/cover.png' : undefined),
  idAt: (path: string) => (path === '.gitbook/assets/cover.png' ? 'f1' : undefined),
};

describe('page metadata in frontmatter', () => {
  it("reads GitBook's frontmatter", () => {
    const frontmatter = {
      description: 'About it',
      icon: 'book',
      hidden: true,
      cover: '../.gitbook/assets/cover.png',
      coverY: -40,
      layout: {
        width: 'wide',
        cover: { visible: true, size: 'hero' },
        title: { visible: true },
        description: { visible: false },
        tableOfContents: { visible: true },
        outline: { visible: false },
        pagination: { visible: true },
      },
    };
    expect(frontmatterToMeta(frontmatter, 'guides/page.md', files)).toEqual({
      description: 'About it',
      icon: 'book',
      hidden: true,
      cover: { ref: { kind: 'file', file: 'f1' }, yPos: -40 },
      layout: {
        width: 'wide',
        cover: true,
        coverSize: 'hero',
        title: true,
        description: false,
        tableOfContents: true,
        outline: false,
        pagination: true,
      },
    });
  });

  it('leaves out values of the wrong type and unknown files', () => {
    const frontmatter = {
      description: 42,
      emoji: '',
      hidden: 'yes',
      noIndex: false,
      cover: 'missing.png',
      layout: { width: 'huge', title: 'no', outline: { visible: 'x' } },
      unknown: 'kept out',
    };
    expect(frontmatterToMeta(frontmatter, 'page.md', files)).toEqual({ noIndex: false });
    expect(frontmatterToMeta({ cover: 'https://example.com/c.png' }, 'page.md', files)).toEqual({
      cover: { ref: { kind: 'url', url: 'https://example.com/c.png' }, yPos: 0 },
    });
  });

  it('writes what it reads', () => {
    const meta = {
      emoji: '1f600',
      noRobotsIndex: true,
      cover: { ref: { kind: 'file', file: 'f1' }, yPos: 0 },
      layout: { metadata: false, cover: false },
      computed: { ignored: true },
    };
    const written = metaToFrontmatter(meta, 'a/b.md', files);
    expect(written).toEqual({
      emoji: '1f600',
      noRobotsIndex: true,
      cover: '../.gitbook/assets/cover.png',
      coverY: 0,
      layout: { cover: { visible: false }, metadata: { visible: false } },
    });
    const { computed: _computed, ...kept } = meta;
    expect(frontmatterToMeta(written, 'a/b.md', files)).toEqual(kept);
  });

  it("reads and writes GitBook's newer keys, in GitBook's order", () => {
    const frontmatter = {
      description: 'About it',
      hidden: true,
      noIndex: true,
      icon: 'book',
      cover: '../.gitbook/assets/cover.png',
      coverY: -12.5,
      coverHeight: 139,
      layout: {
        width: 'default',
        cover: { visible: true, size: 'background', mask: 'radial' },
        title: { visible: true },
        tags: { visible: false },
        actions: { visible: true },
        anchors: { visible: false },
      },
    };
    const meta = frontmatterToMeta(frontmatter, 'guides/page.md', files);
    expect(meta).toEqual({
      description: 'About it',
      hidden: true,
      noIndex: true,
      icon: 'book',
      cover: { ref: { kind: 'file', file: 'f1' }, yPos: -12.5, height: 139 },
      layout: {
        width: 'default',
        cover: true,
        coverSize: 'background',
        coverMask: 'radial',
        title: true,
        tags: false,
        actions: true,
        anchors: false,
      },
    });
    const written = metaToFrontmatter(meta, 'guides/page.md', files);
    expect(written).toEqual(frontmatter);
    expect(Object.keys(written)).toEqual(Object.keys(frontmatter));
    expect(Object.keys(written.layout as object)).toEqual(Object.keys(frontmatter.layout));
  });

  it('keeps the position of a cover whose image the repository lacks', () => {
    const meta = frontmatterToMeta(
      { cover: 'gone.png', coverY: 0, coverHeight: 200 },
      'p.md',
      files,
    );
    expect(meta).toEqual({ cover: { yPos: 0, height: 200 } });
    expect(metaToFrontmatter(meta, 'p.md', files)).toEqual({ coverY: 0, coverHeight: 200 });
  });
});
