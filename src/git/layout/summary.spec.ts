import { parseSummary, type SummaryEntry } from './summary';

/** The entries without the text of each item as written (its own test below). */
function read(text: string): SummaryEntry[] {
  const strip = (entries: SummaryEntry[]): SummaryEntry[] =>
    entries.map(({ written: _written, ...entry }) => ({
      ...entry,
      children: strip(entry.children),
    }));
  return strip(parseSummary(text));
}

describe('parseSummary', () => {
  it('reads nested items, groups, escaped titles and link targets', () => {
    const text = [
      '# Table of contents',
      '',
      '* [Intro](README.md)',
      '* [Guides](guides/README.md)',
      '  * [Writing \\[beta\\]](guides/writing.md)',
      '    * [Deep](<guides/deep page.md>)',
      '  - [Publishing](guides/publishing.md "title")',
      '',
      '## Reference',
      '',
      '* [API](reference/api%20v2.md)',
      '* [Website](https://example.com/)',
    ].join('\n');
    expect(read(text)).toEqual([
      { kind: 'page', title: 'Intro', target: 'README.md', children: [] },
      {
        kind: 'page',
        title: 'Guides',
        target: 'guides/README.md',
        children: [
          {
            kind: 'page',
            title: 'Writing [beta]',
            target: 'guides/writing.md',
            children: [
              { kind: 'page', title: 'Deep', target: 'guides/deep page.md', children: [] },
            ],
          },
          {
            kind: 'page',
            title: 'Publishing',
            target: 'guides/publishing.md',
            tooltip: 'title',
            children: [],
          },
        ],
      },
      {
        kind: 'group',
        title: 'Reference',
        children: [
          { kind: 'page', title: 'API', target: 'reference/api v2.md', children: [] },
          { kind: 'page', title: 'Website', target: 'https://example.com/', children: [] },
        ],
      },
    ]);
  });

  it('reads the YAML block of an item as a computed page', () => {
    const text = [
      '# Table of contents',
      '',
      '* [API](api/README.md)',
      '  * ```yaml',
      '    props:',
      '      models: true',
      '    type: builtin:openapi',
      '    dependencies:',
      '      spec:',
      '        ref:',
      '          kind: openapi',
      '          spec: petstore',
      '    ```',
      '  * [After](api/after.md)',
    ].join('\n');
    expect(read(text)).toEqual([
      {
        kind: 'page',
        title: 'API',
        target: 'api/README.md',
        children: [
          {
            kind: 'computed',
            title: '',
            yaml:
              'props:\n  models: true\ntype: builtin:openapi\ndependencies:\n  spec:\n' +
              '    ref:\n      kind: openapi\n      spec: petstore\n',
            children: [],
          },
          { kind: 'page', title: 'After', target: 'api/after.md', children: [] },
        ],
      },
    ]);
  });

  it('reads an item without a link as a text entry holding the items under it', () => {
    const text = [
      '# Table of contents',
      '',
      '* [Install by RPM \\(Red Hat\\)](install/rpm.md)',
      '* Obsolete Installation',
      '  * Agent v4 \\(EOL\\)',
      '    * [Install v4](install/v4.md)',
      '* [monitor_agent](input/monitor_agent.md)',
    ].join('\n');
    expect(parseSummary(text)).toEqual([
      {
        kind: 'page',
        title: 'Install by RPM (Red Hat)',
        written: 'Install by RPM \\(Red Hat\\)',
        target: 'install/rpm.md',
        children: [],
      },
      {
        kind: 'text',
        title: 'Obsolete Installation',
        written: 'Obsolete Installation',
        children: [
          {
            kind: 'text',
            title: 'Agent v4 (EOL)',
            written: 'Agent v4 \\(EOL\\)',
            children: [
              {
                kind: 'page',
                title: 'Install v4',
                written: 'Install v4',
                target: 'install/v4.md',
                children: [],
              },
            ],
          },
        ],
      },
      {
        kind: 'page',
        title: 'monitor_agent',
        written: 'monitor_agent',
        target: 'input/monitor_agent.md',
        children: [],
      },
    ]);
  });
});
