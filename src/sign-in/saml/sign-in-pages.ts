/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Headers of every page a sign-in shows: nothing cached, nothing loaded, no referrer. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

export interface TokenPage {
  token: string;
  expiresAt: Date;
  organization: { id: string; title: string };
  user: { email: string; displayName: string };
  /** `GET /v1/orgs/{organizationId}`, for the curl example. */
  organizationUrl: string;
}

/** The end of a sign-in without a redirect URI: the token, shown this once, and how to use it. */
export function tokenPage(page: TokenPage): string {
  const curl = `curl -H "Authorization: Bearer ${page.token}" ${page.organizationUrl}`;
  return layout(
    'Signed in',
    `<h1>Signed in to ${escapeHtml(page.organization.title)}</h1>
<p>${escapeHtml(page.user.displayName)} (${escapeHtml(page.user.email)}), here is your API token.
It is shown this once: copy it now. It reaches this organization only, and works until
${escapeHtml(page.expiresAt.toISOString())}.</p>
<pre id="token">${escapeHtml(page.token)}</pre>
<p>For example:</p>
<pre>${escapeHtml(curl)}</pre>`,
  );
}

/** A sign-in that failed: what went wrong, in words, and nothing else. */
export function errorPage(status: number, message: string): string {
  return layout(
    'Sign-in failed',
    `<h1>Sign-in failed</h1>
<p id="message">${escapeHtml(message)}</p>
<p>Status ${escapeHtml(String(status))}. Start again from your identity provider or ask an
administrator of the organization.</p>`,
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)} · Bindery</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
pre{background:#f4f4f5;padding:.75rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
