import { redactSpanAttributes } from './redact-span';

describe('redactSpanAttributes', () => {
  it('keeps the attributes of a span without URLs as they are (the same object)', () => {
    const attributes = { 'db.query.text': 'SELECT 1', 'http.route': '/v1/orgs/:organizationId' };
    expect(redactSpanAttributes(false, attributes)).toBe(attributes);
  });

  it("redacts the values of a received request's secret query parameters", () => {
    const attributes = {
      'url.path': '/v1/invitations/abc',
      'url.query': 'expires=1&signature=s3cr3t&x=1',
      'url.full': '/v1/files/f/download?Signature=s3cr3t&shareKey=k3y',
      'http.route': '/v1/invitations/:inviteId',
    };
    expect(redactSpanAttributes(false, attributes)).toEqual({
      'url.path': '/v1/invitations/abc',
      'url.query': 'expires=1&signature=[REDACTED]&x=1',
      'url.full': '/v1/files/f/download?Signature=[REDACTED]&shareKey=[REDACTED]',
      'http.route': '/v1/invitations/:inviteId',
    });
    // The span's own attributes are left alone.
    expect(attributes['url.query']).toBe('expires=1&signature=s3cr3t&x=1');
  });

  it('keeps only the origin of a URL called out', () => {
    expect(
      redactSpanAttributes(true, {
        'url.full': 'https://user:pw@hooks.example.com/services/T0/B0/s3cr3t?x=1',
        'url.path': '/services/T0/B0/s3cr3t',
        'url.query': 'x=1',
        'http.target': '/services/T0/B0/s3cr3t?x=1',
        'http.request.method': 'POST',
      }),
    ).toEqual({ 'url.full': 'https://hooks.example.com', 'http.request.method': 'POST' });
  });
});
