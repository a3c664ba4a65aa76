import { collapseWhitespace, decodeEntities, readHtmlHead } from './html-head';

describe('readHtmlHead', () => {
  it('reads the title, meta and link tags, and the base', () => {
    const head = readHtmlHead(`<!doctype html>
      <html lang="en"><head>
        <meta charset="utf-8">
        <title>
          Release notes &amp; changes
        </title>
        <base href="/docs/">
        <META Property="og:title" CONTENT='Release notes'>
        <meta name=twitter:card content=summary />
        <link rel="icon" href="favicon.png">
      </head><body><meta property="og:title" content="In the body"></body></html>`);
    expect(head).toEqual({
      title: 'Release notes & changes',
      base: '/docs/',
      metas: [
        { charset: 'utf-8' },
        { property: 'og:title', content: 'Release notes' },
        { name: 'twitter:card', content: 'summary' },
      ],
      links: [{ rel: 'icon', href: 'favicon.png' }],
    });
  });

  it('skips comments, scripts and styles, whatever they contain', () => {
    const head = readHtmlHead(`<head>
      <!-- <title>commented</title> -->
      <script>document.write("<title>scripted</title><meta name='x' content='y'>")</script>
      <style>/* <title>styled</title> */</style>
      <SCRIPT type="text/javascript">if (a </b) {}</SCRIPT >
      <title>Real</title>
    </head>`);
    expect(head.title).toBe('Real');
    expect(head.metas).toEqual([]);
  });

  it('keeps attribute values as text: markup in them is not markup', () => {
    const head = readHtmlHead(
      `<meta property="og:title" content="<script>alert(1)</script>"><title>t</title>`,
    );
    expect(head.metas).toEqual([{ property: 'og:title', content: '<script>alert(1)</script>' }]);
    expect(head.title).toBe('t');
  });

  it('copes with truncated and malformed markup', () => {
    expect(readHtmlHead('<title>Cut off').title).toBe('Cut off');
    expect(readHtmlHead('<meta content="never closed').metas).toEqual([
      { content: 'never closed' },
    ]);
    expect(readHtmlHead('< title>not a tag</title><!-- open').title).toBeUndefined();
    expect(readHtmlHead('')).toEqual({ metas: [], links: [] });
  });

  it('stops at the body', () => {
    const head = readHtmlHead('<html><body><title>late</title></body>');
    expect(head.title).toBeUndefined();
  });

  it('takes linear time on adversarial input', () => {
    const inputs = [
      '<'.repeat(200_000),
      '<a '.repeat(100_000),
      `<meta ${'x='.repeat(100_000)}`,
      '</'.repeat(100_000),
      `<title>${'</titl'.repeat(50_000)}`,
      '&'.repeat(200_000),
    ];
    for (const input of inputs) {
      const started = Date.now();
      readHtmlHead(input);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });
});

describe('decodeEntities', () => {
  it('decodes the common references and leaves the rest as written', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#39;d&#x27; &rsquo; &unknown; & x')).toBe(
      "a & b <c> 'd' \u2019 &unknown; & x",
    );
    expect(decodeEntities('&#0; &#xD800; &#1114112;')).toBe('\ufffd \ufffd \ufffd');
  });
});

describe('collapseWhitespace', () => {
  it('collapses runs of whitespace and trims', () => {
    expect(collapseWhitespace('  a \n\t b\u00a0 c  ')).toBe('a b c');
  });
});
