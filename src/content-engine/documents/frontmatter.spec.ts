import { splitFrontmatter } from './frontmatter';

describe('splitFrontmatter', () => {
  it('reads a leading YAML block and answers the markdown after it', () => {
    expect(
      splitFrontmatter('---\ntitle: Install\nhidden: true\ncount: 3\n---\n# Heading\n\nBody.\n'),
    ).toEqual({
      frontmatter: { title: 'Install', hidden: true, count: 3 },
      body: '# Heading\n\nBody.\n',
    });
  });

  it('accepts CRLF line ends, a BOM, an empty block and a closing "..."', () => {
    expect(splitFrontmatter('\uFEFF---\r\ndescription: x\r\n---\r\nBody')).toEqual({
      frontmatter: { description: 'x' },
      body: 'Body',
    });
    expect(splitFrontmatter('---\n---\nBody')).toEqual({ frontmatter: {}, body: 'Body' });
    expect(splitFrontmatter('---\n# a comment\n\n---\nBody')).toEqual({
      frontmatter: {},
      body: 'Body',
    });
    expect(splitFrontmatter('---\na: 1\n...\nBody')).toEqual({
      frontmatter: { a: 1 },
      body: 'Body',
    });
    expect(splitFrontmatter('---\na: 1\n---')).toEqual({ frontmatter: { a: 1 }, body: '' });
  });

  it('leaves markdown without a first-line fence alone', () => {
    for (const markdown of ['Text\n---\na: 1\n---\n', '\n---\na: 1\n---\n', '--- \nno end', '']) {
      expect(splitFrontmatter(markdown)).toEqual({ frontmatter: null, body: markdown });
    }
  });

  it('does not end the block at a "---" inside a line', () => {
    expect(splitFrontmatter('---\ntitle: a---b\n---\nBody')).toEqual({
      frontmatter: { title: 'a---b' },
      body: 'Body',
    });
  });

  it('reads only the core schema: no dates, no custom tags', () => {
    expect(splitFrontmatter('---\nwhen: 2024-01-02\n---\n').frontmatter).toEqual({
      when: '2024-01-02',
    });
    const tagged = '---\nx: !!js/function "() => 1"\n---\n';
    expect(splitFrontmatter(tagged)).toEqual({ frontmatter: null, body: tagged });
  });

  it('takes a block that is not a YAML mapping for markdown (thematic breaks)', () => {
    for (const markdown of [
      '---\ntitle: [unclosed\n---\n',
      '---\n- a\n- b\n---\n',
      '---\nJust a paragraph between two rules.\n---\nMore.',
    ]) {
      expect(splitFrontmatter(markdown)).toEqual({ frontmatter: null, body: markdown });
    }
  });
});
