import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError } from '../../platform/errors/domain-error';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';
import { readHtmlHead } from './html-head';
import { linkPreview, type LinkPreview } from './link-preview';

/** GitBook's `Embed`, as Bindery answers it: always a link card, never third-party HTML. */
export type Embed = { type: 'link' } & LinkPreview;

/**
 * Bytes of a page read for its head, the rest cut off (a head sits at the start); less when
 * OUTBOUND_MAX_BYTES is less.
 */
export const EMBED_MAX_BYTES = 512 * 1024;
/**
 * Time one page may take, as the renderer waits for the answer while it renders; less when
 * OUTBOUND_TIMEOUT_MS is less.
 */
export const EMBED_TIMEOUT_MS = 10_000;
/** How long an answer is kept: a day for a preview, five minutes for a page that failed. */
export const EMBED_TTL_MS = 24 * 60 * 60 * 1000;
export const EMBED_FAILURE_TTL_MS = 5 * 60 * 1000;
const EMBED_CACHE_ENTRIES = 2000;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';

/** An embed by URL, or why there is none (a message for the 404). */
type Outcome = { embed: Embed } | { failure: string };

const embedNotFound = (reason: string) =>
  new DomainError('not_found', 'EmbedNotFound', `No embed for this URL: ${reason}`);

/**
 * Embeds of external URLs (`getEmbedByUrlInSpace`): the page is fetched through the outbound
 * HTTP policy (public addresses only unless OUTBOUND_ALLOW_PRIVATE, bounded time and size) and
 * its head read for a link card (title, site name, icon). GitBook's renderer inserts a `rich`
 * embed's HTML into the page unsanitised, so Bindery never answers one: third-party markup never
 * passes through. Answers, and failures, are cached per URL in the process, and concurrent
 * requests for one URL share one fetch.
 */
@Injectable()
export class EmbedsService {
  private readonly logger = new Logger(EmbedsService.name);
  private readonly cache = new LRUCache<string, Outcome>({
    max: EMBED_CACHE_ENTRIES,
    ttl: EMBED_TTL_MS,
  });
  private readonly pending = new Map<string, Promise<Outcome>>();
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly http: OutboundHttp,
    config: AppConfig,
  ) {
    this.timeoutMs = Math.min(EMBED_TIMEOUT_MS, config.OUTBOUND_TIMEOUT_MS);
    this.maxBytes = Math.min(EMBED_MAX_BYTES, config.OUTBOUND_MAX_BYTES);
  }

  /** The embed of `url` (an absolute http or https URL); 404 when the page cannot be read. */
  async byUrl(url: URL): Promise<Embed> {
    const key = url.href;
    let outcome = this.cache.get(key);
    if (!outcome) {
      let fetching = this.pending.get(key);
      if (!fetching) {
        fetching = this.fetch(url).finally(() => this.pending.delete(key));
        this.pending.set(key, fetching);
      }
      outcome = await fetching;
    }
    if ('failure' in outcome) throw embedNotFound(outcome.failure);
    return outcome.embed;
  }

  private async fetch(url: URL): Promise<Outcome> {
    const outcome = await this.read(url);
    this.cache.set(url.href, outcome, {
      ttl: 'failure' in outcome ? EMBED_FAILURE_TTL_MS : EMBED_TTL_MS,
    });
    return outcome;
  }

  private async read(url: URL): Promise<Outcome> {
    try {
      const response = await this.http.fetch(url.href, {
        headers: { accept: ACCEPT },
        timeoutMs: this.timeoutMs,
        maxBytes: this.maxBytes,
        truncate: true,
      });
      if (response.status < 200 || response.status > 299) {
        return { failure: `the page answered HTTP ${response.status}.` };
      }
      const final = new URL(response.url);
      const { mediaType, charset } = contentType(response.headers['content-type']);
      const head = HTML_TYPES.has(mediaType) ? readHtmlHead(decode(response.body, charset)) : null;
      return { embed: { type: 'link', ...linkPreview(head, final) } };
    } catch (error) {
      if (error instanceof OutboundHttpError) return { failure: error.message };
      this.logger.warn(`Embed of ${url.host} failed: ${String(error)}`);
      return { failure: 'the page could not be read.' };
    }
  }
}

/** The media type (lower case) and charset of a Content-Type header. */
function contentType(header: string | undefined): { mediaType: string; charset?: string } {
  const [type = '', ...parameters] = (header ?? '').split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"|"$/g, '');
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

/**
 * The page's text: in the charset its header names, else the one a `<meta charset>` (or
 * `http-equiv` Content-Type) near its start names, else UTF-8. Malformed bytes become U+FFFD.
 */
function decode(body: Buffer, charset: string | undefined): string {
  const label = charset ?? declaredCharset(body);
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The charset a page's head declares in its first kilobytes, if any. */
function declaredCharset(body: Buffer): string | undefined {
  const head = readHtmlHead(body.subarray(0, 4096).toString('latin1'));
  for (const meta of head.metas) {
    if (meta.charset) return meta.charset.trim();
    if (meta['http-equiv']?.toLowerCase() === 'content-type') {
      const { charset } = contentType(meta.content);
      if (charset) return charset;
    }
  }
  return undefined;
}
