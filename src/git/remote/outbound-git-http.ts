import { STATUS_CODES } from 'node:http';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { OutboundHttp, OutboundHttpMethod } from '../../platform/outbound-http';

const METHODS = new Set<string>(['GET', 'HEAD', 'POST']);

/**
 * isomorphic-git's `http` plugin over OutboundHttp: every request of a clone, fetch or push
 * goes through the outbound policy (schemes, private addresses, timeout, size limit).
 */
export function outboundGitHttp(outbound: OutboundHttp): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const method = (request.method ?? 'GET').toUpperCase();
      if (!METHODS.has(method)) throw new Error(`Unsupported HTTP method ${method}`);
      const body = request.body ? await collect(request.body) : undefined;
      const response = await outbound.fetch(request.url, {
        method: method as OutboundHttpMethod,
        headers: request.headers ?? {},
        body,
      });
      return {
        url: response.url,
        method,
        statusCode: response.status,
        statusMessage: STATUS_CODES[response.status] ?? '',
        headers: response.headers,
        body: once(new Uint8Array(response.body)),
      };
    },
  };
}

/** A request body as one Buffer (isomorphic-git gives an array or an async iterable). */
async function collect(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function* once(chunk: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield chunk;
}
