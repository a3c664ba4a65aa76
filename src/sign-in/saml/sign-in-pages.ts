import { html, renderPage } from '../html-page';

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
  return renderPage(
    `Signed in to ${page.organization.title}`,
    html`<p>
        ${page.user.displayName} (${page.user.email}), here is your API token. It is shown this
        once: copy it now. It reaches this organization only, and works until
        ${page.expiresAt.toISOString()}.
      </p>
      <pre id="token">${page.token}</pre>
      <p>For example:</p>
      <pre>${curl}</pre>`,
  );
}

/** A sign-in that failed: what went wrong, in words, and nothing else. */
export function errorPage(status: number, message: string): string {
  return renderPage(
    'Sign-in failed',
    html`<p id="message">${message}</p>
      <p>
        Status ${status}. Start again from your identity provider or ask an administrator of the
        organization.
      </p>`,
  );
}
