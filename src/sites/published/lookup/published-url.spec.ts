import { basePathOf, parseSiteUrl, platformSiteKey, proxyCandidates } from './published-url';

const url = (value: string) => parseSiteUrl(value)!;

describe('published site URLs', () => {
  it('parses absolute http(s) URLs into host and decoded segments', () => {
    expect(url('https://Docs.Example.com:8443/a//b%20c/')).toEqual({
      origin: 'https://docs.example.com:8443',
      host: 'docs.example.com',
      segments: ['a', 'b c'],
    });
    expect(parseSiteUrl('/relative')).toBeNull();
    expect(parseSiteUrl('ftp://example.com/x')).toBeNull();
    expect(parseSiteUrl('not a url')).toBeNull();
  });

  it('finds the organization and site under a sites URL with the organization in the path', () => {
    const sites = 'http://docs.localhost/{organization}';
    expect(platformSiteKey(sites, url('https://docs.localhost/acme/handbook/guides'))).toEqual({
      organization: 'acme',
      site: 'handbook',
      consumed: 2,
    });
    expect(platformSiteKey(sites, url('https://docs.localhost/acme'))).toBeNull();
    expect(platformSiteKey(sites, url('https://other.localhost/acme/handbook'))).toBeNull();
  });

  it('finds the organization in the host, and ignores ports', () => {
    const sites = 'https://{organization}.docs.example.com:8080/sites';
    expect(platformSiteKey(sites, url('https://acme.docs.example.com/sites/handbook'))).toEqual({
      organization: 'acme',
      site: 'handbook',
      consumed: 2,
    });
    expect(platformSiteKey(sites, url('https://acme.docs.example.com/other/handbook'))).toBeNull();
    expect(platformSiteKey(sites, url('https://docs.example.com/sites/handbook'))).toBeNull();
  });

  it('reads sites URLs without an organization', () => {
    expect(platformSiteKey('http://localhost:3000/sites', url('http://localhost/sites/x'))).toEqual(
      { organization: null, site: 'x', consumed: 2 },
    );
  });

  it('lists the proxy origins a URL could be under', () => {
    expect(proxyCandidates(url('https://example.com/docs/guides'))).toEqual([
      'example.com',
      'example.com/docs',
      'example.com/docs/guides',
    ]);
  });

  it('writes base paths with both slashes', () => {
    expect(basePathOf([])).toBe('/');
    expect(basePathOf(['acme', 'a b'])).toBe('/acme/a%20b/');
  });
});
