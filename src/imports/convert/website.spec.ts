import { readLayout } from '../../git/layout/layout-reader';
import { crawlWebsite, type ConvertContext, type CrawlOptions } from './import-tree';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

type Response = Awaited<ReturnType<CrawlOptions['fetch']>>;

/** A site served from memory: path → HTML (or a full response); everything else 404. */
function site(routes: Record<string, string | Partial<Response>>) {
  const fetched: string[] = [];
  const fetch: CrawlOptions['fetch'] = (url, signal) => {
    signal.throwIfAborted();
    fetched.push(url);
    const route = routes[url];
    if (route === undefined)
      return Promise.resolve({
        status: 404,
        url,
        contentType: 'text/html',
        body: Buffer.from('missing'),
      });
    if (typeof route === 'string') {
      return Promise.resolve({
        status: 200,
        url,
        contentType: 'text/html; charset=utf-8',
        body: Buffer.from(route),
      });
    }
    return Promise.resolve({
      status: 200,
      url,
      contentType: 'text/html',
      body: Buffer.alloc(0),
      ...route,
    });
  };
  return { fetch, fetched };
}

function newContext(signal = new AbortController().signal) {
  const warnings: string[] = [];
  const progress: [number, number][] = [];
  const context: ConvertContext = {
    signal,
    progress: (done, total) => void progress.push([done, total]),
    warn: (message) => void warnings.push(message),
  };
  return { context, warnings, progress };
}

const layout = (title: string, nav: string, content: string) =>
  `<html><head><title>${title} | Acme Docs</title><meta name="description" content="About ${title}."></head><body>` +
  `<header>Acme</header><nav>${nav}</nav><main><article><h1>${title}</h1>${content}</article></main><footer>© Acme</footer></body></html>`;

const NAV =
  '<a href="/docs/">Home</a><a href="/docs/guide/install">Install</a><a href="/docs/guide/configure.html">Configure</a>' +
  '<a href="/docs/private/secret">Secret</a><a href="/blog/">Blog</a><a href="https://other.test/x">Other</a><a href="/docs/files/manual.pdf">PDF</a>';

describe('crawlWebsite', () => {
  it('crawls within the start folder, obeys robots.txt, nests pages by path, downloads images, rewrites links', async () => {
    const { fetch, fetched } = site({
      'https://acme.test/robots.txt': {
        contentType: 'text/plain',
        body: Buffer.from('User-agent: *\nDisallow: /docs/private/\n'),
      },
      'https://acme.test/docs/': layout(
        'Welcome',
        NAV,
        '<p>Start with <a href="guide/install#linux">installing</a>, or read the <a href="/blog/">blog</a>.</p><img src="/img/logo.png" alt="Logo">',
      ),
      'https://acme.test/docs/guide/install': layout(
        'Install',
        NAV,
        '<h2 id="linux">Linux</h2><pre><code class="language-bash">apt install acme</code></pre><p><a href="configure.html">Next</a> <a href="#linux">here</a></p>' +
          '<img src="https://cdn.test/shot.png" alt="Shot"><img src="/img/gone.png" alt="Gone">',
      ),
      'https://acme.test/docs/guide/configure.html': layout(
        'Configure',
        NAV,
        '<p>Back to <a href="../">home</a>.</p><img src="/img/logo.png">',
      ),
      'https://acme.test/docs/private/secret': layout('Secret', NAV, '<p>No.</p>'),
      'https://acme.test/img/logo.png': { contentType: 'image/png', body: PNG },
      'https://cdn.test/shot.png': { contentType: 'image/png', body: Buffer.from([1, 2, 3]) },
    });
    const { context, warnings, progress } = newContext();
    const tree = await crawlWebsite(
      { startUrl: 'https://acme.test/docs/', maxPages: 10, fetch },
      context,
    );
    const text = (path: string) => tree.files.get(path)?.toString('utf8');

    expect(text('SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n  * [Configure](guide/configure.md)\n',
    );
    expect(text('README.md')).toBe(
      '---\ndescription: About Welcome.\n---\n\n# Welcome\n\nStart with [installing](guide/install.md#linux), or read the [blog](https://acme.test/blog/).\n\n![Logo](.gitbook/assets/logo.png)\n',
    );
    expect(text('guide/install.md')).toBe(
      '---\ndescription: About Install.\n---\n\n# Install\n\n## Linux\n\n```bash\napt install acme\n```\n\n[Next](configure.md) [here](#linux)\n\n' +
        '![Shot](../.gitbook/assets/shot.png)![Gone](https://acme.test/img/gone.png)\n',
    );
    expect(text('guide/configure.md')).toBe(
      '---\ndescription: About Configure.\n---\n\n# Configure\n\nBack to [home](../README.md).\n\n![](../.gitbook/assets/logo.png)\n',
    );
    expect(text('guide/README.md')).toBe('# Guide\n');
    expect(tree.files.get('.gitbook/assets/logo.png')).toEqual(PNG);
    expect(tree.sources.get('guide/install.md')).toBe('https://acme.test/docs/guide/install');
    // Never outside the folder, never what robots.txt disallows, never files as pages.
    expect(fetched.filter((url) => /blog|other\.test|private|manual\.pdf/.test(url))).toEqual([]);
    expect(warnings).toEqual([
      '1 page(s) left out: robots.txt disallows them.',
      '1 image(s) could not be downloaded: they link to their URL.',
    ]);
    expect(progress[progress.length - 1]).toEqual([3, 3]);

    let id = 0;
    const read = await readLayout(tree.files, () => `id${++id}`);
    expect(read.orphans).toEqual([]);
    expect(read.pages.map((page) => page.title)).toEqual(['Welcome', 'Guide']);
  });

  it('stops at maxPages, breadth-first, and follows redirects within the scope only', async () => {
    const { fetch } = site({
      'https://acme.test/docs': {
        status: 200,
        url: 'https://acme.test/docs/',
        contentType: 'text/html',
        body: Buffer.from(
          layout('Home', '<a href="a">A</a><a href="b">B</a><a href="c">C</a>', ''),
        ),
      },
      'https://acme.test/docs/a': layout('A', '<a href="a/deep">Deep</a>', ''),
      'https://acme.test/docs/b': {
        status: 200,
        url: 'https://elsewhere.test/b',
        contentType: 'text/html',
        body: Buffer.from(layout('B', '', '')),
      },
      'https://acme.test/docs/c': layout('C', '', ''),
      'https://acme.test/docs/a/deep': layout('Deep', '', ''),
    });
    const { context } = newContext();
    const tree = await crawlWebsite(
      { startUrl: 'https://acme.test/docs', maxPages: 3, fetch },
      context,
    );
    expect(tree.files.get('SUMMARY.md')?.toString()).toBe(
      '# Table of contents\n\n* [Home](README.md)\n* [A](a.md)\n* [C](c.md)\n',
    );
  });

  it('reads a page with a broken <base href> against its own URL, and a <base> elsewhere', async () => {
    const { fetch } = site({
      'https://acme.test/':
        '<html><head><base href="http://[broken"></head><body><main><h1>Home</h1><p><a href="sub/">Sub</a></p></main></body></html>',
      'https://acme.test/sub/':
        '<html><head><base href="/"></head><body><main><h1>Sub</h1><p><a href="sub/">Self</a></p><img src="pic.png"></main></body></html>',
      'https://acme.test/pic.png': { contentType: 'image/png', body: PNG },
    });
    const tree = await crawlWebsite(
      { startUrl: 'https://acme.test/', maxPages: 5, fetch },
      newContext().context,
    );
    expect(tree.files.get('README.md')?.toString()).toBe('# Home\n\n[Sub](sub.md)\n');
    expect(tree.files.get('sub.md')?.toString()).toBe(
      '# Sub\n\n[Self](sub.md)\n\n![](.gitbook/assets/pic.png)\n',
    );
  });

  it('rejects a start URL that is not http(s), and stops when cancelled', async () => {
    const { fetch } = site({});
    await expect(
      crawlWebsite({ startUrl: 'ftp://acme.test/', maxPages: 5, fetch }, newContext().context),
    ).rejects.toThrow('http(s)');
    const controller = new AbortController();
    const { fetch: slow } = site({
      'https://acme.test/': layout('Home', '<a href="/a">A</a>', ''),
    });
    const aborting: CrawlOptions['fetch'] = async (url, signal) => {
      const response = await slow(url, signal);
      if (url.endsWith('/')) controller.abort(new Error('cancelled by the user'));
      return response;
    };
    await expect(
      crawlWebsite(
        { startUrl: 'https://acme.test/', maxPages: 5, fetch: aborting },
        newContext(controller.signal).context,
      ),
    ).rejects.toThrow('cancelled by the user');
  });
});
