import { escapeHtml } from '../html-page';
import { errorPage, tokenPage } from './sign-in-pages';

describe('sign-in pages', () => {
  it('escapes the characters HTML gives meaning to', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('shows the token with a curl example, every value escaped', () => {
    const html = tokenPage({
      token: 'bnd_abc',
      expiresAt: new Date('2026-05-02T10:00:00Z'),
      organization: { id: 'o1', title: '<script>alert(1)</script>' },
      user: { email: 'ada@x.io', displayName: 'Ada "<b>"' },
      organizationUrl: 'http://api.test/v1/orgs/o1',
    });
    expect(html).toContain('<pre id="token">bnd_abc</pre>');
    expect(html).toContain(
      'curl -H &quot;Authorization: Bearer bnd_abc&quot; http://api.test/v1/orgs/o1',
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Ada &quot;&lt;b&gt;&quot;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('2026-05-02T10:00:00.000Z');
  });

  it('tells what failed, escaped', () => {
    const html = errorPage(403, 'mallory@<evil>.test is not allowed');
    expect(html).toContain('mallory@&lt;evil&gt;.test is not allowed');
    expect(html).toContain('Status 403');
  });
});
