import { All, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError, notFound } from '../../platform/errors/domain-error';
import { RawBody } from '../../platform/validation/request-body';
import { IntegrationsRepository } from '../integrations.repository';
import { IntegrationDispatcher } from './integration-dispatcher';

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

/**
 * An integration's public HTTP endpoint (`urls.publicEndpoint`): any request under it reaches
 * the script's `fetch` as GitBook's `fetch` event (the request's URL, method and headers, its
 * body as `fetch-body`), and the script's answer is the answer. Where integrations receive
 * webhooks and OAuth callbacks. No token: the integration checks what it receives. Its answers
 * are served sandboxed (an opaque origin), so a page an integration serves cannot act as the
 * API's origin.
 */
@ApiExcludeController()
@Controller('integrations/:integrationName/integration')
export class IntegrationEndpointController {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly dispatcher: IntegrationDispatcher,
    private readonly config: AppConfig,
  ) {}

  @All(['', '*path'])
  @Access.public()
  @RawBody()
  async relay(
    @Param('integrationName') name: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    // GitBook's `FetchRequest` has these methods, lower-cased.
    const method = request.method.toLowerCase();
    if (!FETCH_METHODS.includes(method)) {
      response.setHeader('Allow', FETCH_METHODS.join(', ').toUpperCase());
      throw new DomainError(
        'method_not_allowed',
        'MethodNotAllowed',
        `An integration's endpoint takes ${FETCH_METHODS.join(', ').toUpperCase()} requests.`,
      );
    }
    const integration = await this.integrations.findByName(name);
    if (!integration) throw notFound('Integration');
    const body = await readBody(request);
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
    }
    const result = await this.dispatcher.dispatch(
      integration,
      {
        type: 'fetch',
        request: {
          url: `${this.config.publicUrl}${request.originalUrl}`,
          method,
          headers,
        },
      },
      { fetchBody: body.length > 0 ? body : undefined },
    );
    if (!result.response) {
      throw new DomainError(
        'unavailable',
        'IntegrationFailed',
        `${name} did not answer: ${result.error}`,
      );
    }
    const { status, headers: answered, body: answer } = result.response;
    for (const [key, value] of Object.entries(answered)) {
      if (!DROPPED.has(key)) response.setHeader(key, value);
    }
    response.setHeader('Content-Security-Policy', 'sandbox allow-scripts allow-forms allow-popups');
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
