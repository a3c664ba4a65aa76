import type { AppConfig } from '../config/app-config';
import { UrlBuilder } from './url-builder';

describe('UrlBuilder', () => {
  const urls = new UrlBuilder({
    publicUrl: 'https://api.example.com',
    appUrl: 'https://app.example.com',
  } as AppConfig);

  it('encodes each segment', () => {
    expect(urls.api('orgs', 'a b')).toBe('https://api.example.com/v1/orgs/a%20b');
    expect(urls.app('o', 'x/y')).toBe('https://app.example.com/o/x%2Fy');
  });

  it('builds below a URL it made as it would have built the whole', () => {
    const base = urls.app('o', 'org', 's', 'space');
    expect(urls.under(base, 'guides', 'a b')).toBe(
      urls.app('o', 'org', 's', 'space', 'guides', 'a b'),
    );
    expect(urls.under(base)).toBe(base);
  });
});
