import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError } from '../../platform/errors/domain-error';
import type { Integration } from '../entities/integration.entity';
import { contentSecurityPolicyHeader } from '../manifest/content-security-policy';
import { type DispatchOptions, IntegrationDispatcher } from './integration-dispatcher';

/** The largest body a request to an integration's public endpoint may carry. */
const MAX_BODY_BYTES = 1024 * 1024;
const FETCH_METHODS = ['get', 'post', 'put', 'delete'];
/**
 * Headers of the script's answer not passed on: the connection's, and cookies, which would be
 * the API origin's (its published sites' visitor sessions live there too).
 */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'set-cookie',
]);

/** What a request to an installation's endpoint adds to the `fetch` event and its sending. */
export interface EndpointTarget {
  /** The event's `installationId`, `spaceId`, `siteId`. */
  event?: { installationId: string; spaceId?: string; siteId?: string };
  options?: DispatchOptions;
}

/**
 * The public HTTP endpoints of integrations and their installations: a request reaches the
 * script's `fetch` as GitBook's `fetch` event (the request's URL, method and headers, its body
 * as `fetch-body`), and the script's answer is the answer. Under INTEGRATIONS_URL's origin
 * (GitBook's integrations host) its pages run as that origin, framed by sites (its blocks' web
 * frames); under the API's origin they are served sandboxed (an opaque origin), so a page an
 * integration serves cannot act as the API's origin. Never a cookie.
 */
@Injectable()
export class IntegrationEndpoint {
  /** INTEGRATIONS_URL's `host:port`, where integrations' pages run as that origin; or null. */
  private readonly contentHost: string | null;

  constructor(
    private readonly dispatcher: IntegrationDispatcher,
    private readonly config: AppConfig,
  ) {
    this.contentHost = config.integrationsUrl ? new URL(config.integrationsUrl).host : null;
  }

  /** 405 for a method GitBook's `FetchRequest` does not have. */
  assertMethod(request: Request, response: Response): void {
    if (FETCH_METHODS.includes(request.method.toLowerCase())) return;
    response.setHeader('Allow', FETCH_METHODS.join(', ').toUpperCase());
    throw new DomainError(
      'method_not_allowed',
      'MethodNotAllowed',
      `An integration's endpoint takes ${FETCH_METHODS.join(', ').toUpperCase()} requests.`,
    );
  }

  async relay(
    integration: Integration,
    request: Request,
    response: Response,
    target: EndpointTarget = {},
  ): Promise<void> {
    const body = await readBody(request);
    // The origin it arrived at: INTEGRATIONS_URL's, where its pages run, or the API's.
    const onOwnOrigin = this.contentHost !== null && request.host === this.contentHost;
    const origin = onOwnOrigin ? this.config.integrationsUrl : this.config.publicUrl;
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
    }
    const result = await this.dispatcher.dispatch(
      integration,
      {
        type: 'fetch',
        ...target.event,
        request: {
          url: `${origin}${request.originalUrl}`,
          // GitBook's `FetchRequest` has its methods lower-cased.
          method: request.method.toLowerCase(),
          headers,
        },
      },
      { ...target.options, fetchBody: body.length > 0 ? body : undefined },
    );
    if (!result.response) {
      throw new DomainError(
        'unavailable',
        'IntegrationFailed',
        `${integration.name} did not answer: ${result.error}`,
      );
    }
    const { status, headers: answered, body: answer } = result.response;
    if (onOwnOrigin) {
      // Its own origin (INTEGRATIONS_URL): sites may frame its pages, which run under the
      // policy the script answers, else its manifest's; not the API's.
      response.removeHeader('X-Frame-Options');
      response.removeHeader('Content-Security-Policy');
      const policy = contentSecurityPolicyHeader(integration.contentSecurityPolicy);
      if (policy !== null) response.setHeader('Content-Security-Policy', policy);
      for (const [key, value] of Object.entries(answered)) {
        if (!DROPPED.has(key)) response.setHeader(key, value);
      }
    } else {
      for (const [key, value] of Object.entries(answered)) {
        if (!DROPPED.has(key)) response.setHeader(key, value);
      }
      // On the API's origin: an opaque origin, so its pages cannot act as the API's.
      response.setHeader(
        'Content-Security-Policy',
        'sandbox allow-scripts allow-forms allow-popups',
      );
    }
    response.status(status).end(answer);
  }
}

async function readBody(request: Request): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new DomainError('payload_too_large', 'PayloadTooLarge', 'The body is over 1 MB.');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
