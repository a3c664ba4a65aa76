import { dump } from 'js-yaml';
import { canonicalHead, headText, renderHead, splitHead } from './page-head';

describe("a page file's head", () => {
  it('splits a file into its head and its body, and gives the head back as read', () => {
    const text = '---\ndescription: x\n---\n\n\n# Title\n\nBody.\n\n';
    const { parts, body } = splitHead(text);
    expect(parts).toMatchObject({
      yaml: 'description: x',
      gap: '\n\n',
      heading: '# Title\n',
      headingTitle: 'Title',
      after: '\n',
    });
    expect(body).toBe('Body.\n\n');
    expect(headText(parts) + body).toBe(text);
    // No heading: the title comes from elsewhere (SUMMARY.md); a heading `# C#` keeps its `#`.
    expect(splitHead('---\na: 1\n---\nText.\n').parts).toMatchObject({ heading: null, after: '' });
    expect(splitHead('# C#\n').parts.headingTitle).toBe('C#');
    expect(splitHead('# Title #\n').parts.headingTitle).toBe('Title');
  });

  it("is GitBook's: js-yaml's default dump, a blank line, the title, a blank line", () => {
    const description =
      'A description long enough to be folded on more than one line by the YAML writer of GitBook.';
    expect(canonicalHead({ description, icon: 'book' }, 'Title', true)).toBe(
      `---\ndescription: >-\n  A description long enough to be folded on more than one line by the YAML\n` +
        `  writer of GitBook.\nicon: book\n---\n\n# Title\n\n`,
    );
    expect(canonicalHead({}, 'Title', false)).toBe('# Title\n');
  });

  const source = splitHead(
    '---\n' +
      'title: Kept\n' +
      'icon: book\n' +
      'description: >-\n' +
      '  Wrapped by hand\n' +
      '  at another width.\n' +
      'sidebar_position: 3\n' +
      '---\n' +
      '# Title\n',
  ).parts;
  const base = { description: 'Wrapped by hand at another width.', icon: 'book' };

  it('is written back as it was read while the page says the same', () => {
    expect(renderHead({ values: base, base, title: 'Title', hasBody: true, source })).toBe(
      headText(source),
    );
  });

  it('changes only the lines of what changed, in GitBook form and order', () => {
    const values = { description: 'New.', hidden: true, icon: 'book' };
    expect(renderHead({ values, base, title: 'Renamed', hasBody: true, source })).toBe(
      '---\n' +
        'title: Kept\n' +
        // A new key goes where GitBook's order puts it among the keys it writes.
        'hidden: true\n' +
        'icon: book\n' +
        'description: New.\n' +
        'sidebar_position: 3\n' +
        '---\n' +
        '# Renamed\n',
    );
    const { icon: _icon, ...withoutIcon } = base;
    expect(renderHead({ values: withoutIcon, base, title: 'Title', hasBody: true, source })).toBe(
      headText(source).replace('icon: book\n', ''),
    );
  });

  it('keeps a file without heading so, and adds a block where there was none', () => {
    const headless = splitHead('Text first.\n').parts;
    expect(renderHead({ values: {}, base: {}, title: 'T', hasBody: true, source: headless })).toBe(
      '',
    );
    const plain = splitHead('# T\n\nText.\n').parts;
    expect(
      renderHead({ values: { icon: 'book' }, base: {}, title: 'T', hasBody: true, source: plain }),
    ).toBe(`---\n${dump({ icon: 'book' })}---\n\n# T\n\n`);
  });
});
