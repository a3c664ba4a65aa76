import { parseSummary } from './summary';

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
      '* Not a link',
      '',
      '## Reference',
      '',
      '* [API](reference/api%20v2.md)',
      '* [Website](https://example.com/)',
    ].join('\n');
    expect(parseSummary(text)).toEqual([
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
    expect(parseSummary(text)).toEqual([
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
});
