import { readHtmlHead } from './html-head';
import { linkPreview } from './link-preview';

const page = new URL('https://www.example.com/blog/post?id=1');

describe('linkPreview', () => {
  it('prefers OpenGraph, then Twitter, then the title', () => {
    const head = readHtmlHead(`<title>Title tag</title>
      <meta name="twitter:title" content="Twitter title">
      <meta property="og:title" content="  OpenGraph   title ">
      <meta property="og:site_name" content="Example Blog">`);
    expect(linkPreview(head, page)).toEqual({ title: 'OpenGraph title', site: 'Example Blog' });
    expect(linkPreview(readHtmlHead('<title>Only a title</title>'), page)).toEqual({
      title: 'Only a title',
      site: 'example.com',
    });
    expect(linkPreview(readHtmlHead('<meta name="application-name" content="App">'), page)).toEqual(
      { title: 'post', site: 'App' },
    );
  });

  it('falls back on the URL for a page that is not HTML', () => {
    expect(linkPreview(null, new URL('https://files.example.com/docs/Guide%20v2.pdf'))).toEqual({
      title: 'Guide v2.pdf',
      site: 'files.example.com',
    });
    expect(linkPreview(null, new URL('https://example.com/'))).toEqual({
      title: 'example.com',
      site: 'example.com',
    });
  });

  it('gives the best declared icon as an absolute http(s) URL', () => {
    const head = readHtmlHead(`<base href="/static/">
      <link rel="apple-touch-icon" href="touch.png">
      <link rel="mask-icon" href="mask.svg">
      <link rel="Shortcut Icon" href="favicon.ico">`);
    expect(linkPreview(head, page).icon).toBe('https://www.example.com/static/favicon.ico');
    expect(
      linkPreview(readHtmlHead('<link rel="icon" href="javascript:alert(1)">'), page).icon,
    ).toBeUndefined();
    expect(
      linkPreview(readHtmlHead('<link rel="icon" href="data:image/png;base64,AAAA">'), page).icon,
    ).toBeUndefined();
  });

  it('bounds what it answers', () => {
    const head = readHtmlHead(`<title>${'t'.repeat(5000)}</title>`);
    expect(linkPreview(head, page).title).toHaveLength(256);
  });
});
