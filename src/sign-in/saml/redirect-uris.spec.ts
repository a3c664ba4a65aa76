import { isAllowedRedirectUri, withCode } from './redirect-uris';

describe('isAllowedRedirectUri', () => {
  const prefixes = [
    'http://localhost:8080/callback',
    'https://tools.example.com/',
    'https://app.test',
  ];

  it.each([
    'http://localhost:8080/callback',
    'http://localhost:8080/callback?state=1',
    'http://localhost:8080/callback/done',
    'https://tools.example.com/',
    'https://tools.example.com/sso/cb#x',
    'https://app.test/cb',
  ])('allows %s', (uri) => {
    expect(isAllowedRedirectUri(uri, prefixes)).toBe(true);
  });

  it.each([
    'http://localhost:8080/callbackx',
    'http://localhost:8080/',
    'https://app.test.evil.example/cb',
    'https://app.test@evil.example/',
    'https://tools.example.com.evil/',
    'javascript:alert(1)',
    'not a url',
    'https://elsewhere.test/',
  ])('refuses %s', (uri) => {
    expect(isAllowedRedirectUri(uri, prefixes)).toBe(false);
  });

  it('allows nothing without prefixes', () => {
    expect(isAllowedRedirectUri('https://tools.example.com/', [])).toBe(false);
  });
});

describe('withCode', () => {
  it('adds the code to the query, keeping the other parameters', () => {
    expect(withCode('http://localhost:8080/cb?state=a%20b', 'c0de')).toBe(
      'http://localhost:8080/cb?state=a+b&code=c0de',
    );
    expect(withCode('https://x.test/cb?code=old', 'new')).toBe('https://x.test/cb?code=new');
  });
});
