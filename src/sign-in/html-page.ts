import type { Response } from 'express';
import { DomainError, statusOfKind } from '../platform/errors/domain-error';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Markup, as `html` makes it: goes into another `html` template as it is. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A template whose values are escaped, but for `Html` values (and arrays of them). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const piece = (value: unknown): string =>
    value instanceof Html ? value.value : escapeHtml(String(value ?? ''));
  return new Html(
    strings.reduce((out, string, i) => {
      const value = values[i - 1];
      return out + (Array.isArray(value) ? value.map(piece).join('') : piece(value)) + string;
    }),
  );
}

/**
 * Headers of every page of a sign-in or an invitation: pages may show a secret (an API token)
 * or carry one in their address (a signed link), so nothing is cached, sent as referrer,
 * framed or run.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

/** An answer that is a page, as the API document shows it (`content` of a response). */
export const PAGE_CONTENT = { 'text/html': { schema: { type: 'string' } } };

/** A plain page with `title` as its heading. */
export function renderPage(title: string, body: Html): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Bindery</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; color: #1f2328; }
pre { background: #f4f4f5; padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
input { font: inherit; padding: .3rem; width: 100%; box-sizing: border-box; }
button { font: inherit; padding: .4rem 1rem; margin-top: .75rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body.value}
</body>
</html>
`;
}

/** Sends a page people see in their browser. */
export function sendPage(response: Response, status: number, title: string, body: Html): void {
  response.status(status).set(PAGE_HEADERS).send(renderPage(title, body));
}

/**
 * Sends the page of a refusal at its status. Anything but a DomainError is a defect, rethrown
 * for the application's error filter.
 */
export function sendErrorPage(response: Response, error: unknown, title: string): void {
  if (!(error instanceof DomainError)) throw error;
  sendPage(response, statusOfKind(error.kind), title, html`<p id="message">${error.message}</p>`);
}
