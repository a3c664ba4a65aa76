import { REDACTED, redactUrl } from './redact';

describe('redactUrl', () => {
  it.each([
    [
      '/v1/files/sha256/ab?expires=1700000000&name=a.pdf&signature=s3cr3t',
      `/v1/files/sha256/ab?expires=1700000000&name=a.pdf&signature=${REDACTED}`,
    ],
    [
      '/v1/orgs/o/sites/s/published?shareKey=k3y',
      `/v1/orgs/o/sites/s/published?shareKey=${REDACTED}`,
    ],
    [
      '/x?share_key=a&Share-Key=b&SHAREKEY=c',
      `/x?share_key=${REDACTED}&Share-Key=${REDACTED}&SHAREKEY=${REDACTED}`,
    ],
    [
      '/x?visitor_token=a&jwt_token=b&token=c',
      `/x?visitor_token=${REDACTED}&jwt_token=${REDACTED}&token=${REDACTED}`,
    ],
    ['/x?sig%6Eature=a', `/x?sig%6Eature=${REDACTED}`],
    ['https://h.test/p?key=a#frag', `https://h.test/p?key=${REDACTED}#frag`],
  ])('redacts %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each([
    '/v1/orgs/o/spaces?limit=10&page=abc',
    '/v1/spaces/s/search?query=signature',
    '/no-query',
    '/x?flag&bad=%E0%A4%A',
    '/x?%zz=1',
  ])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });
});
