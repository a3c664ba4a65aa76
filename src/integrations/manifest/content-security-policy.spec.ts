import { contentSecurityPolicyHeader } from './content-security-policy';

describe('contentSecurityPolicyHeader', () => {
  it('joins directives given by name, with sources written over several lines', () => {
    expect(
      contentSecurityPolicyHeader({
        'script-src': "\n  'unsafe-inline'\n  https://www.googletagmanager.com;\n",
        'connect-src': 'https://*.google-analytics.com',
      }),
    ).toBe(
      "script-src 'unsafe-inline' https://www.googletagmanager.com; connect-src https://*.google-analytics.com",
    );
  });

  it('tidies one policy string, and answers null for none or an empty one', () => {
    expect(contentSecurityPolicyHeader("default-src 'self';;  img-src *;\n")).toBe(
      "default-src 'self'; img-src *",
    );
    expect(contentSecurityPolicyHeader(null)).toBeNull();
    expect(contentSecurityPolicyHeader(' ; ')).toBeNull();
  });
});
