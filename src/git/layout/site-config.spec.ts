import {
  allSpaces,
  configDirectory,
  readSiteConfig,
  renderSiteConfig,
  type SiteConfig,
} from './site-config';

const text = [
  '$schema: https://api.gitbook.com/gitbook-docs.yaml',
  'site:',
  '  title: Acme Docs',
  '  structure:',
  '    - type: section-group',
  '      key: group-product',
  '      title: Product',
  '      icon: box',
  '      children:',
  '        - type: section',
  '          key: section-guides',
  '          title: Guides',
  '          localizedTitle:',
  '            fr: Guides pratiques',
  '          description: How to use it',
  '          icon: book',
  '          path: guides',
  '          default: true',
  '          children:',
  '            - type: space',
  '              key: space-guides-en',
  '              title: English',
  '              path: en',
  '              default: true',
  '              content:',
  '                directory: ./guides/en',
  '                language: en',
  '            - type: space',
  '              key: space-guides-fr',
  '              title: Français',
  '              path: fr',
  '              hidden: true',
  '              content:',
  '                directory: ./guides/fr',
  '                language: fr',
  '        - type: external-link',
  '          key: link-status',
  '          title: Status',
  '          url: https://status.acme.test',
  '    - type: section',
  '      key: section-api',
  '      title: API',
  '      path: api',
  '      children:',
  '        - type: space',
  '          key: space-api',
  '          title: API reference',
  '          path: reference',
  '          default: true',
  '          content:',
  '            directory: null',
  '',
].join('\n');

describe("GitBook's site configuration (gitbook-docs.yaml)", () => {
  it('reads a structure of groups, sections, spaces and links, and writes it back as it was', () => {
    const read = readSiteConfig(text);
    expect('config' in read).toBe(true);
    const { config } = read as { config: SiteConfig };
    expect(config.site.title).toBe('Acme Docs');
    expect(allSpaces(config.site.structure).map((space) => space.content.directory)).toEqual([
      './guides/en',
      './guides/fr',
      null,
    ]);
    expect(renderSiteConfig(config)).toBe(text);
  });

  it('writes nodes with their keys in GitBook’s order', () => {
    const config: SiteConfig = {
      site: {
        title: 'Docs',
        structure: [
          {
            content: { language: 'en', directory: './docs' },
            default: true,
            path: 'docs',
            title: 'Docs',
            key: 'space-docs',
            type: 'space',
          },
        ],
      },
    };
    expect(renderSiteConfig(config)).toBe(
      'site:\n  title: Docs\n  structure:\n    - type: space\n      key: space-docs\n' +
        '      title: Docs\n      path: docs\n      default: true\n      content:\n' +
        '        directory: ./docs\n        language: en\n',
    );
  });

  it('refuses what GitBook refuses, naming the node', () => {
    const errors = (yaml: string) => {
      const read = readSiteConfig(yaml);
      return 'errors' in read ? read.errors : [];
    };
    const space = (key: string, extra = '') =>
      `    - type: space\n      key: ${key}\n      title: T\n      path: ${key}\n${extra}` +
      `      content:\n        directory: ./${key}\n`;
    expect(
      errors(
        `site:\n  title: X\n  structure:\n${space('a', '      default: true\n')}${space('a')}`,
      ),
    ).toContain('a: key used twice');
    expect(errors(`site:\n  title: X\n  structure:\n${space('a')}${space('b')}`)).toContain(
      'site.structure: exactly one top-level space is the default',
    );
    expect(
      errors('site:\n  title: X\n  structure:\n    - type: space\n      key: a\n      title: T\n'),
    ).toEqual(
      expect.arrayContaining([
        'site.structure[0] (a): path missing',
        'site.structure[0] (a): content.directory missing',
      ]),
    );
    expect(
      errors(
        'site:\n  title: X\n  structure:\n    - type: section\n      key: s\n      title: S\n' +
          '      path: s\n      default: true\n      children:\n        - type: section\n' +
          '          key: t\n          title: T\n          path: t\n',
      ),
    ).toContain('site.structure[0] (s).children[0]: a section cannot hold a section');
    expect(errors('site: [')[0]).toMatch(/^not YAML/);
  });

  it('resolves directories from the project directory, or from the root with a slash', () => {
    expect(configDirectory('./guides/en', 'docs')).toBe('docs/guides/en');
    expect(configDirectory('/guides', 'docs')).toBe('guides');
    expect(configDirectory('./')).toBe('');
  });
});
