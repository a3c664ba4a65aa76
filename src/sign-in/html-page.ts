import type { Response } from 'express';
import { DomainError, statusOfKind } from '../platform/errors/domain-error';

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A tagged template whose values are escaped; `Html` values (from `html`) go in as they are. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(
    strings.reduce((out, string, i) => {
      if (i === 0) return string;
      const value = values[i - 1];
      const text = Array.isArray(value)
        ? value.map((v) => (v instanceof Html ? v.value : escapeHtml(String(v)))).join('')
        : value instanceof Html
          ? value.value
          : escapeHtml(String(value ?? ''));
      return out + text + string;
    }, ''),
  );
}

/**
 * Sends a plain page people see in their browser during sign-in. Pages may show a secret (an
 * API token) or carry one in their address (a signed link): no caching, no referrer, no
 * framing, no scripts.
 */
export function sendPage(response: Response, status: number, title: string, body: Html): void {
  response
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    })
    .send(
      html`<!doctype html>
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>${title}</title>
            <style>
              body {
                font-family: system-ui, sans-serif;
                max-width: 40rem;
                margin: 3rem auto;
                padding: 0 1rem;
                line-height: 1.5;
                color: #1f2328;
              }
              code,
              pre {
                font-family: ui-monospace, monospace;
                background: #f6f8fa;
                border-radius: 4px;
              }
              pre {
                padding: 0.75rem;
                overflow-x: auto;
                white-space: pre-wrap;
                word-break: break-all;
              }
              input {
                font: inherit;
                padding: 0.3rem;
                width: 100%;
                box-sizing: border-box;
              }
              button {
                font: inherit;
                padding: 0.4rem 1rem;
                margin-top: 0.75rem;
              }
              .error {
                color: #a40e26;
              }
            </style>
          </head>
          <body>
            <h1>${title}</h1>
            ${body}
          </body>
        </html> `.value,
    );
}

/** Sends the page of a refusal: its message, at its status (400 for anything unexpected). */
export function sendErrorPage(response: Response, error: unknown, title: string): void {
  if (!(error instanceof DomainError)) throw error;
  sendPage(response, statusOfKind(error.kind), title, html`<p class="error">${error.message}</p>`);
}
