import { DomainError } from '../../platform/errors/domain-error';
import { normalizeRef } from './refs';
import { basicAuthorization, parseRemoteUrl, redactCredentials } from './remote-url';

describe('parseRemoteUrl', () => {
  it('splits credentials off the URL', () => {
    expect(parseRemoteUrl('https://bot:t%40ken@git.example.com/acme/docs.git')).toEqual({
      url: 'https://git.example.com/acme/docs.git',
      credentials: { username: 'bot', password: 't@ken' },
    });
    expect(parseRemoteUrl('http://127.0.0.1:8080/r.git')).toEqual({
      url: 'http://127.0.0.1:8080/r.git',
    });
  });

  it('refuses anything but http(s) URLs', () => {
    for (const url of ['git@github.com:acme/docs.git', 'ssh://host/r.git', 'file:///tmp/r', '']) {
      expect(() => parseRemoteUrl(url)).toThrow(DomainError);
    }
  });

  it('redacts credentials however they are written', () => {
    const credentials = { username: 'bot', password: 'p@ss' };
    const header = basicAuthorization(credentials);
    const text = `failed for p@ss, p%40ss and ${header}`;
    expect(redactCredentials(text, credentials)).toBe('failed for ***, *** and Basic ***');
  });
});

describe('normalizeRef', () => {
  it('expands branch names and keeps full refs', () => {
    expect(normalizeRef('main')).toBe('refs/heads/main');
    expect(normalizeRef('refs/tags/v1.0')).toBe('refs/tags/v1.0');
  });

  it('refuses what git refuses', () => {
    for (const ref of [
      'a..b',
      'with space',
      'x~1',
      'a:b',
      'end/',
      '.hidden',
      'a/.b',
      'x.lock',
      'a\u0001',
    ]) {
      expect(() => normalizeRef(ref)).toThrow(DomainError);
    }
  });
});
