import { strToU8, zipSync } from 'fflate';
import { convertFiles, type ConvertContext } from './import-tree';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function zip(files: Record<string, string | Buffer>): Buffer {
  return Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(files).map(([path, data]) => [
          path,
          typeof data === 'string' ? strToU8(data) : new Uint8Array(data),
        ]),
      ),
    ),
  );
}

function page(title: string, crumbs: [string, string][], content: string): string {
  const items = crumbs
    .map(([href, text]) => `<li><span><a href="${href}">${text}</a></span></li>`)
    .join('');
  return (
    `<html><head><title>Team Space : ${title}</title></head><body><div id="page"><div id="main-header">` +
    `<div id="breadcrumb-section"><ol id="breadcrumbs">${items}</ol></div>` +
    `<h1 id="title-heading" class="pagetitle"><span id="title-text"> Team Space : ${title} </span></h1></div>` +
    `<div id="content" class="view"><div class="page-metadata">Created by Ann</div>` +
    `<div id="main-content" class="wiki-content group">${content}</div>` +
    '<div class="pageSection group"><h2 id="attachments">Attachments:</h2></div></div></div></body></html>'
  );
}

describe('Confluence space export', () => {
  it("reads the space's hierarchy, titles, content, links and attachments", async () => {
    const warnings: string[] = [];
    const context: ConvertContext = {
      signal: new AbortController().signal,
      progress: () => undefined,
      warn: (message) => void warnings.push(message),
    };
    const index =
      '<html><head><title>Team Space</title></head><body><div id="main-content"><h2>Available Pages:</h2>' +
      '<ul><li><a href="Home_65537.html">Home</a><ul>' +
      '<li><a href="Getting-Started_65540.html">Getting Started</a><ul><li><a href="Install_65541.html">Install</a></li></ul></li>' +
      '<li><a href="FAQ_65542.html">FAQ</a></li>' +
      '</ul></li></ul></div><p>Confluence</p></body></html>';
    const archive = zip({
      'TEAM/index.html': index,
      'TEAM/Home_65537.html': page(
        'Home',
        [['index.html', 'Team Space']],
        '<p>Welcome. Start with <a href="Getting-Started_65540.html">Getting Started</a>.</p>',
      ),
      'TEAM/Getting-Started_65540.html': page(
        'Getting Started',
        [
          ['index.html', 'Team Space'],
          ['Home_65537.html', 'Home'],
        ],
        '<div class="confluence-information-macro confluence-information-macro-information"><span class="aui-icon confluence-information-macro-icon"></span>' +
          '<div class="confluence-information-macro-body"><p>Read this first.</p></div></div>' +
          '<p><span class="confluence-embedded-file-wrapper"><img class="confluence-embedded-image" src="attachments/65540/65550.png" alt=""></span>' +
          ' <img class="emoticon" src="images/icons/emoticons/smile.svg" alt="(smile)"></p>' +
          '<div class="code panel pdl"><div class="codeContent panelContent pdl"><pre class="syntaxhighlighter-pre" data-syntaxhighlighter-params="brush: bash; gutter: false">npm install</pre></div></div>' +
          '<p><a href="attachments/65540/65551.pdf">manual.pdf</a></p>',
      ),
      'TEAM/Install_65541.html': page(
        'Install',
        [
          ['index.html', 'Team Space'],
          ['Home_65537.html', 'Home'],
          ['Getting-Started_65540.html', 'Getting Started'],
        ],
        '<table class="confluenceTable"><tbody><tr><th class="confluenceTh">OS</th><th class="confluenceTh">Command</th></tr>' +
          '<tr><td class="confluenceTd">Linux</td><td class="confluenceTd"><code>apt</code></td></tr></tbody></table>',
      ),
      'TEAM/FAQ_65542.html': page(
        'FAQ',
        [
          ['index.html', 'Team Space'],
          ['Home_65537.html', 'Home'],
        ],
        '<h2>Why?</h2><p>Because.</p>',
      ),
      // Not in index.html: placed by its breadcrumbs.
      'TEAM/Orphan_65543.html': page(
        'Orphan',
        [
          ['index.html', 'Team Space'],
          ['Home_65537.html', 'Home'],
          ['FAQ_65542.html', 'FAQ'],
        ],
        '<p>Late page.</p>',
      ),
      'TEAM/attachments/65540/65550.png': PNG,
      'TEAM/attachments/65540/65551.pdf': Buffer.from('%PDF'),
      'TEAM/images/icons/emoticons/smile.svg': '<svg/>',
      'TEAM/styles/site.css': 'body{}',
    });
    const tree = await convertFiles(
      [{ name: 'Confluence-space-export.zip', bytes: archive }],
      context,
    );
    const text = (path: string) => tree.files.get(path)?.toString('utf8');
    expect(text('SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Home](README.md)\n* [Getting Started](getting-started/README.md)\n  * [Install](getting-started/install.md)\n' +
        '* [FAQ](faq/README.md)\n  * [Orphan](faq/orphan.md)\n',
    );
    expect(text('README.md')).toBe(
      '# Home\n\nWelcome. Start with [Getting Started](getting-started/).\n',
    );
    expect(text('getting-started/README.md')).toBe(
      '# Getting Started\n\n{% hint style="info" %}\nRead this first.\n{% endhint %}\n\n![](../.gitbook/assets/65550.png)\n\n' +
        '```bash\nnpm install\n```\n\n[manual.pdf](../.gitbook/assets/manual.pdf)\n',
    );
    expect(text('getting-started/install.md')).toBe(
      '# Install\n\n| OS | Command |\n| --- | --- |\n| Linux | `apt` |\n',
    );
    expect(text('faq/README.md')).toBe('# FAQ\n\n## Why?\n\nBecause.\n');
    expect(tree.files.get('.gitbook/assets/65550.png')).toEqual(PNG);
    expect(tree.sources.get('getting-started/install.md')).toBe('Install_65541.html');
    expect(
      [...tree.files.keys()].filter((path) => path.includes('smile') || path.endsWith('.css')),
    ).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
