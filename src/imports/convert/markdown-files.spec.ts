import { convertMarkdown, orderFromName, titleFromName } from './markdown-files';

describe('convertMarkdown', () => {
  it('reads Docusaurus front matter and takes the leading heading as the title', () => {
    const page = convertMarkdown(
      '---\ntitle: From front matter\nsidebar_position: 3\nslug: /guides/first-steps\ndescription: Start here.\n---\n\n' +
        "import Tabs from '@theme/Tabs';\n\n# The heading\n\nBody.\n",
    );
    expect(page).toEqual({
      title: 'The heading',
      description: 'Start here.',
      order: 3,
      slug: 'first-steps',
      body: 'Body.',
    });
  });

  it('keeps the front matter title when there is no heading, and reads MkDocs keys', () => {
    expect(
      convertMarkdown('---\ntitle: Setup\nnav_order: 2\nsummary: Short.\n---\nText.\n'),
    ).toEqual({
      title: 'Setup',
      description: 'Short.',
      order: 2,
      body: 'Text.',
    });
    expect(convertMarkdown('Title\n=====\n\nText.').title).toBe('Title');
    expect(convertMarkdown('No title.').title).toBeUndefined();
  });

  it("reads Hugo's TOML front matter", () => {
    expect(
      convertMarkdown(
        '+++\ntitle = "Hugo \\"page\\""\nweight = 4\ndescription = \'Plain.\'\n[params]\ntitle = "no"\n+++\nText.',
      ),
    ).toEqual({
      title: 'Hugo "page"',
      description: 'Plain.',
      order: 4,
      body: 'Text.',
    });
  });

  it('drops MDX components alone on a line and table-of-contents markers, escapes Liquid tags', () => {
    const { body } = convertMarkdown(
      [
        '<DocCardList />',
        '{/* a comment */}',
        '[TOC]',
        'Keep {% include note.html %} and {% raw %}.',
        '',
        '{% hint style="info" %}',
        'GitBook tag.',
        '{% endhint %}',
        '',
        '`{% raw %}` in code.',
      ].join('\n'),
    );
    expect(body).toBe(
      [
        'Keep {\\% include note.html %} and {\\% raw %}.',
        '',
        '{% hint style="info" %}',
        'GitBook tag.',
        '{% endhint %}',
        '',
        '`{% raw %}` in code.',
      ].join('\n'),
    );
  });

  it('writes MkDocs, Docusaurus and GitHub admonitions as hints', () => {
    const { body } = convertMarkdown(
      [
        '!!! warning "Mind the gap"',
        '    Careful.',
        '',
        '    More.',
        '',
        ':::tip',
        'Docusaurus tip.',
        ':::',
        '',
        ':::danger[Stop]',
        'Now.',
        ':::',
        '',
        '> [!NOTE]',
        '> GitHub note.',
        '',
        'After.',
      ].join('\n'),
    );
    expect(body).toBe(
      [
        '{% hint style="warning" %}',
        '**Mind the gap**',
        '',
        'Careful.',
        '',
        'More.',
        '{% endhint %}',
        '',
        '{% hint style="success" %}',
        'Docusaurus tip.',
        '{% endhint %}',
        '',
        '{% hint style="danger" %}',
        '**Stop**',
        '',
        'Now.',
        '{% endhint %}',
        '',
        '{% hint style="info" %}',
        'GitHub note.',
        '{% endhint %}',
        '',
        'After.',
      ].join('\n'),
    );
  });

  it('writes MkDocs content tabs and Docusaurus <Tabs> as GitBook tabs', () => {
    const mkdocs = convertMarkdown(
      [
        '=== "Linux"',
        '    apt install x',
        '',
        '=== "macOS"',
        '    brew install x',
        '',
        'Done.',
      ].join('\n'),
    );
    expect(mkdocs.body).toBe(
      [
        '{% tabs %}',
        '{% tab title="Linux" %}',
        'apt install x',
        '{% endtab %}',
        '',
        '{% tab title="macOS" %}',
        'brew install x',
        '{% endtab %}',
        '{% endtabs %}',
        '',
        'Done.',
      ].join('\n'),
    );
    const docusaurus = convertMarkdown(
      [
        '<Tabs>',
        '  <TabItem value="npm" label="npm">',
        '    npm i x',
        '  </TabItem>',
        '  <TabItem value="yarn">',
        '    yarn add x',
        '  </TabItem>',
        '</Tabs>',
      ].join('\n'),
    );
    expect(docusaurus.body).toBe(
      [
        '{% tabs %}',
        '{% tab title="npm" %}',
        'npm i x',
        '{% endtab %}',
        '',
        '{% tab title="yarn" %}',
        'yarn add x',
        '{% endtab %}',
        '{% endtabs %}',
      ].join('\n'),
    );
  });

  it('writes code titles as {% code %} and leaves code blocks and spans alone', () => {
    const { body } = convertMarkdown(
      [
        '```js title="app.js" showLineNumbers',
        'see [x](a.md)',
        ':::note',
        '```',
        '',
        'Use `[x](a.md)` or [x](a.md).',
      ].join('\n'),
      { link: (target) => `new/${target}` },
    );
    expect(body).toBe(
      [
        '{% code title="app.js" lineNumbers="true" %}',
        '```js',
        'see [x](a.md)',
        ':::note',
        '```',
        '{% endcode %}',
        '',
        'Use `[x](a.md)` or [x](new/a.md).',
      ].join('\n'),
    );
  });

  it('rewrites link, image, HTML and reference targets through the callbacks', () => {
    const { body } = convertMarkdown(
      '[a](a.md#x "T") ![i](<img one.png>) <img src="b.png"> [keep](https://x.test)\n\n[ref]: c.md',
      {
        link: (target) => (target.startsWith('https:') ? undefined : `L:${target}`),
        image: (target) => `I:${target.replace(' ', '_')}`,
      },
    );
    expect(body).toBe(
      '[a](L:a.md#x "T") ![i](I:img_one.png) <img src="I:b.png"> [keep](https://x.test)\n\n[ref]: L:c.md',
    );
  });
});

describe('names', () => {
  it('gives titles and orders from file names', () => {
    expect(titleFromName('02-getting_started.md')).toBe('Getting started');
    expect(titleFromName('API.md')).toBe('API');
    expect(orderFromName('02-getting_started.md')).toBe(2);
    expect(orderFromName('intro.md')).toBeUndefined();
  });
});
