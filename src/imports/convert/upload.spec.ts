import { strToU8, zipSync } from 'fflate';
import { readLayout } from '../../git/layout/layout-reader';
import { convertFiles, type ConvertContext, type ImportTree } from './import-tree';

function newContext() {
  const warnings: string[] = [];
  const progress: [number, number][] = [];
  const value: ConvertContext = {
    signal: new AbortController().signal,
    progress: (done, total) => void progress.push([done, total]),
    warn: (message) => void warnings.push(message),
  };
  return { context: value, warnings, progress };
}

function zip(files: Record<string, string | Buffer>): Buffer {
  const entries = Object.fromEntries(
    Object.entries(files).map(([path, data]) => [
      path,
      typeof data === 'string' ? strToU8(data) : new Uint8Array(data),
    ]),
  );
  return Buffer.from(zipSync(entries));
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function text(tree: ImportTree, path: string): string | undefined {
  return tree.files.get(path)?.toString('utf8');
}

/** The page tree as Bindery's Git layout reader reads it: titles and nesting. */
async function readTitles(tree: ImportTree): Promise<unknown[]> {
  let id = 0;
  const read = await readLayout(tree.files, () => `id${++id}`);
  expect(read.orphans).toEqual([]);
  const shape = (list: typeof read.pages): unknown[] =>
    list.map((page) => (page.pages.length > 0 ? { [page.title]: shape(page.pages) } : page.title));
  return shape(read.pages);
}

/** A Word document with a heading, a bold run, a table and an embedded image. */
function docx(): Buffer {
  const ns =
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
    'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';
  const p = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const cell = (text: string) => `<w:tc>${p(text)}</w:tc>`;
  const body =
    p('Quarterly report', 'Heading1') +
    `<w:p><w:r><w:t xml:space="preserve">Plain and </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r></w:p>` +
    `<w:tbl><w:tr>${cell('Region')}${cell('Sales')}</w:tr><w:tr>${cell('North')}${cell('12')}</w:tr></w:tbl>` +
    '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="100"/><wp:docPr id="1" name="Picture 1" descr="A chart"/>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="rId5"/></pic:blipFill></pic:pic></a:graphicData></a:graphic>' +
    '</wp:inline></w:drawing></w:r></w:p>';
  return zip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Default Extension="png" ContentType="image/png"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/_rels/document.xml.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/>' +
      '<Relationship Id="rId6" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    'word/styles.xml': `<?xml version="1.0" encoding="UTF-8"?><w:styles ${ns}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body>${body}</w:body></w:document>`,
    'word/media/image1.png': PNG,
  });
}

describe('convertFiles', () => {
  it('converts a zip of markdown folders into nested pages, links and images rewritten', async () => {
    const { context, warnings, progress } = newContext();
    const archive = zip({
      'my-docs/README.md':
        '# Welcome\n\nRead [the install guide](guide/install.md#linux) and [the guide](guide/).\n',
      'my-docs/guide/_category_.json': '{"label": "User guide", "position": 1}',
      'my-docs/guide/02-configure.md':
        '# Configure\n\n![Diagram](../img/diagram.png) [Back](../README.md) [Ext](https://example.com/x)\n',
      'my-docs/guide/install.md':
        '---\nsidebar_position: 1\ndescription: Get it running.\n---\n# Install\n\n## Linux\n\nSee [configure](./02-configure) and [the spec](../files/spec.pdf).\n',
      'my-docs/api/index.html':
        '<html><head><title>API | Docs</title></head><body><nav>menu</nav><main><h1>API</h1><p>See <a href="../guide/install.md">install</a>.</p></main></body></html>',
      'my-docs/img/diagram.png': PNG,
      'my-docs/files/spec.pdf': Buffer.from('%PDF-1.4'),
      'my-docs/notes.txt': 'stray',
      '__MACOSX/._README.md': 'junk',
    });
    const tree = await convertFiles([{ name: 'docs.zip', bytes: archive }], context);
    expect(await readTitles(tree)).toEqual([
      'Welcome',
      { 'User guide': ['Install', 'Configure'] },
      'API',
    ]);
    expect([...tree.files.keys()].sort()).toEqual([
      '.gitbook/assets/diagram.png',
      '.gitbook/assets/spec.pdf',
      'README.md',
      'SUMMARY.md',
      'api.md',
      'user-guide/README.md',
      'user-guide/configure.md',
      'user-guide/install.md',
    ]);
    expect(text(tree, 'README.md')).toBe(
      '# Welcome\n\nRead [the install guide](user-guide/install.md#linux) and [the guide](user-guide/).\n',
    );
    expect(text(tree, 'user-guide/install.md')).toBe(
      '---\ndescription: Get it running.\n---\n\n# Install\n\n## Linux\n\nSee [configure](configure.md) and [the spec](../.gitbook/assets/spec.pdf).\n',
    );
    expect(text(tree, 'user-guide/configure.md')).toBe(
      '# Configure\n\n![Diagram](../.gitbook/assets/diagram.png) [Back](../README.md) [Ext](https://example.com/x)\n',
    );
    expect(text(tree, 'api.md')).toBe('# API\n\nSee [install](user-guide/install.md).\n');
    expect(tree.sources.get('user-guide/install.md')).toBe('guide/install.md');
    expect(tree.sources.get('user-guide/README.md')).toBe('guide/');
    expect(warnings).toEqual(['Not imported (not a page, nor a file a page uses): notes.txt.']);
    expect(progress[progress.length - 1]).toEqual([4, 4]);
  });

  it('orders a MkDocs project by its mkdocs.yml nav, its pages in docs_dir', async () => {
    const { context, warnings } = newContext();
    const archive = zip({
      'proj/mkdocs.yml':
        'site_name: Proj\ndocs_dir: docs\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n' +
        'nav:\n  - Home: index.md\n  - Guide:\n    - guide/index.md\n    - Usage: guide/usage.md\n    - Advanced topics: guide/advanced.md\n  - About: https://example.com/about\n  - faq.md\n',
      'proj/README.md': '# Repository readme\n',
      'proj/docs/index.md': '# Proj\n\nSee [usage](guide/usage.md).\n',
      'proj/docs/faq.md': '# FAQ\n',
      'proj/docs/guide/index.md': '# The guide\n',
      'proj/docs/guide/usage.md': '# Usage\n\n!!! tip\n    Use it.\n',
      'proj/docs/guide/advanced.md': 'No heading.\n',
      'proj/docs/extra.md': '# Extra\n',
    });
    const tree = await convertFiles([{ name: 'proj.zip', bytes: archive }], context);
    expect(await readTitles(tree)).toEqual([
      'Proj',
      { 'The guide': ['Usage', 'Advanced topics'] },
      'FAQ',
      'Extra',
    ]);
    expect(text(tree, 'README.md')).toBe('# Proj\n\nSee [usage](the-guide/usage.md).\n');
    expect(text(tree, 'the-guide/usage.md')).toBe(
      '# Usage\n\n{% hint style="success" %}\nUse it.\n{% endhint %}\n',
    );
    expect(warnings).toEqual(['Not imported (not a page, nor a file a page uses): README.md.']);
  });

  it('reads a Docusaurus project from docs/, its static images by their site path', async () => {
    const { context } = newContext();
    const archive = zip({
      'site/docusaurus.config.js': 'module.exports = {};',
      'site/README.md': '# Website\n',
      'site/blog/2024-01-01-hello.md': '# Hello\n',
      'site/docs/intro.md':
        '---\nsidebar_position: 1\n---\n# Intro\n\n![Logo](/img/logo.png)\n\n:::tip My tip\nDo.\n:::\n',
      'site/docs/tutorial/_category_.json': '{"label": "Tutorial", "position": 2}',
      'site/docs/tutorial/create-a-page.md': '# Create a page\n\nBack to [intro](../intro).\n',
      'site/static/img/logo.png': PNG,
    });
    const tree = await convertFiles([{ name: 'site.zip', bytes: archive }], context);
    expect(await readTitles(tree)).toEqual(['Intro', { Tutorial: ['Create a page'] }]);
    expect(text(tree, 'README.md')).toBe(
      '# Intro\n\n![Logo](.gitbook/assets/logo.png)\n\n{% hint style="success" %}\n**My tip**\n\nDo.\n{% endhint %}\n',
    );
    expect(text(tree, 'tutorial/create-a-page.md')).toBe(
      '# Create a page\n\nBack to [intro](../README.md).\n',
    );
  });

  it("takes a zip already in GitBook's layout as it is", async () => {
    const { context } = newContext();
    const files = {
      'repo/.gitbook.yaml': 'root: ./\n',
      'repo/README.md': '# Home\n\n{% hint style="info" %}\nKept.\n{% endhint %}\n',
      'repo/SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Other](other.md)\n',
      'repo/other.md': '# Other\n',
      'repo/.gitbook/assets/a.png': PNG,
    };
    const tree = await convertFiles([{ name: 'repo.zip', bytes: zip(files) }], context);
    expect([...tree.files.keys()].sort()).toEqual([
      '.gitbook.yaml',
      '.gitbook/assets/a.png',
      'README.md',
      'SUMMARY.md',
      'other.md',
    ]);
    expect(text(tree, 'README.md')).toBe(files['repo/README.md']);
    expect(await readTitles(tree)).toEqual(['Home', 'Other']);
  });

  it('converts a Word document: headings, marks, tables, embedded images as assets', async () => {
    const { context } = newContext();
    const tree = await convertFiles([{ name: 'Report.docx', bytes: docx() }], context);
    expect(text(tree, 'README.md')).toBe(
      '# Quarterly report\n\nPlain and **bold**\n\n| Region | Sales |\n| --- | --- |\n| North | 12 |\n\n![A chart](.gitbook/assets/Report-image-1.png)\n',
    );
    expect(tree.files.get('.gitbook/assets/Report-image-1.png')).toEqual(PNG);
    expect(tree.sources.get('README.md')).toBe('Report.docx');
  });

  it('converts single HTML and markdown files uploaded together, and warns about the rest', async () => {
    const { context, warnings } = newContext();
    const tree = await convertFiles(
      [
        { name: 'intro.md', bytes: Buffer.from('# Intro\n\nGo to [page](page.html).\n') },
        {
          name: 'page.html',
          bytes: Buffer.from(
            '<article><h1>Page</h1><pre><code class="language-sh">ls</code></pre></article>',
          ),
        },
        { name: 'movie.mp4', bytes: Buffer.from('x') },
      ],
      context,
    );
    expect(await readTitles(tree)).toEqual(['Intro', 'Page']);
    expect(text(tree, 'README.md')).toBe('# Intro\n\nGo to [page](page.md).\n');
    expect(text(tree, 'page.md')).toBe('# Page\n\n```sh\nls\n```\n');
    expect(warnings).toEqual(['Not imported (not a page, nor a file a page uses): movie.mp4.']);
  });

  it('warns about an archive it cannot read and when nothing is a page', async () => {
    const { context, warnings } = newContext();
    const tree = await convertFiles(
      [{ name: 'broken.zip', bytes: Buffer.from('PK\u0003\u0004 not a zip') }],
      context,
    );
    expect(warnings).toEqual([
      'broken.zip: not a readable zip archive, left out.',
      'No page found in the uploaded files (markdown, HTML, Word or a zip of them).',
    ]);
    expect([...tree.files.keys()]).toEqual(['SUMMARY.md']);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      convertFiles([{ name: 'a.md', bytes: Buffer.from('# A') }], {
        ...newContext().context,
        signal: controller.signal,
      }),
    ).rejects.toThrow('cancelled');
  });
});
