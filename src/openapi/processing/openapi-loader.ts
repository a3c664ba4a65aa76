import SwaggerParser from '@apidevtools/swagger-parser';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { sha256Hex } from '../../platform/ids/ids';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';
import type { OpenAPIFilesystem } from '../entities/openapi-spec-version.entity';
import { parseDocument, relativePath, rootPath, type DocumentFormat } from './openapi-documents';
import { fail, MAX_PROBLEMS, problem, ProcessingFailure, type Problem } from './openapi-problems';
import { describeParserFailure } from './parser-errors';

/** Where a specification comes from. */
export type OpenAPISource = { url: string } | { text: string };

/** The outcome of a successful processing: the documents of a version. */
export interface LoadedSpec {
  /** The key of the root document in `filesystem`. */
  rootPath: string;
  /** The URL the root document was read from, after redirects; null for a text source. */
  sourceUrl: string | null;
  /** The root first, then the files its relative `$ref`s reach, by path. */
  filesystem: OpenAPIFilesystem;
  /** Changes exactly when one of the three above does. */
  hash: string;
  /** The root document's text exactly as given or fetched, and whether it is JSON or YAML. */
  raw: { text: string; format: DocumentFormat };
}

/** Files that relative `$ref`s may bring in, besides the root document. */
export const MAX_REFERENCED_FILES = 100;

/**
 * Where a text source's root "is", for the parser's URL arithmetic. Nothing is ever read from
 * it: a text source may only use references inside itself.
 */
const TEXT_BASE = 'https://text-source.invalid/';

const SUPPORTED_OPENAPI = /^3\.[01]\.\d+$/;

/**
 * Reads a specification and checks it: fetches the URL through OutboundHttp (or takes the text),
 * parses JSON or YAML, follows relative `$ref`s to files of the same origin (through
 * OutboundHttp too, at most MAX_REFERENCED_FILES, all within OUTBOUND_MAX_BYTES together), and
 * validates the whole as OpenAPI 3.0, 3.1 or Swagger 2.0 with Swagger Parser. Throws a
 * ProcessingFailure listing what is wrong.
 */
@Injectable()
export class OpenAPILoader {
  constructor(
    private readonly http: OutboundHttp,
    private readonly config: AppConfig,
  ) {}

  async load(source: OpenAPISource): Promise<LoadedSpec> {
    const budget = { bytes: this.config.OUTBOUND_MAX_BYTES, files: MAX_REFERENCED_FILES };
    let base: URL;
    let root: Record<string, unknown>;
    let rootKey: string;
    let raw: LoadedSpec['raw'];
    if ('url' in source) {
      const fetched = await this.fetchFile(source.url, budget);
      base = fetched.url;
      rootKey = rootPath(base);
      const parsed = parseDocument(fetched.text, rootKey);
      root = parsed.document;
      raw = { text: fetched.text, format: parsed.format };
    } else {
      const parsed = parseDocument(source.text, 'the specification');
      rootKey = `openapi.${parsed.format}`;
      base = new URL(rootKey, TEXT_BASE);
      root = parsed.document;
      raw = { text: source.text, format: parsed.format };
    }
    checkVersion(root, rootKey);

    const files = new Map<string, unknown>();
    const failures = new Map<string, Problem>();
    const resolver = {
      order: 1,
      canRead: true,
      read: async (file: { url: string }): Promise<unknown> => {
        try {
          const document = await this.referencedFile('text' in source, base, file.url, budget);
          files.set(relativePath(base, new URL(file.url)), document);
          return structuredClone(document);
        } catch (error) {
          if (!(error instanceof ProcessingFailure)) throw error;
          failures.set(file.url, error.problems[0]);
          throw new Error(error.message);
        }
      },
    };
    try {
      await new SwaggerParser().validate(base.href, structuredClone(root) as never, {
        continueOnError: true,
        resolve: { file: false, http: false, bindery: resolver } as never,
        dereference: { circular: 'ignore' },
        validate: { schema: true, spec: true },
      });
    } catch (error) {
      throw new ProcessingFailure(
        describeParserFailure(error, { base, rootKey, failures }).slice(0, MAX_PROBLEMS),
      );
    }
    // Root first, then by path: the same content always makes the same version.
    const filesystem: OpenAPIFilesystem = { [rootKey]: root };
    for (const key of [...files.keys()].sort()) {
      if (key !== rootKey) filesystem[key] = files.get(key);
    }
    const sourceUrl = 'url' in source ? base.href : null;
    return {
      rootPath: rootKey,
      sourceUrl,
      filesystem,
      hash: sha256Hex(JSON.stringify([rootKey, sourceUrl, filesystem])),
      raw,
    };
  }

  /** A file that a `$ref` names, if it may be read: same origin, within the budget. */
  private async referencedFile(
    fromText: boolean,
    base: URL,
    url: string,
    budget: { bytes: number; files: number },
  ): Promise<unknown> {
    const target = new URL(url);
    if (fromText) {
      throw fail(
        'INVALID_REFERENCE',
        `${url.startsWith(TEXT_BASE) ? url.slice(TEXT_BASE.length) : url}: a specification ` +
          'given as text can only use references inside itself (#/...); give it by URL to ' +
          'use other files.',
      );
    }
    if (target.origin !== base.origin) {
      throw fail(
        'INVALID_REFERENCE',
        `${url}: only files of the specification's own origin (${base.origin}) are read.`,
      );
    }
    const name = relativePath(base, target);
    if (budget.files <= 0) {
      throw fail(
        'INVALID_REFERENCE',
        `${name}: the specification references more than ${MAX_REFERENCED_FILES} files.`,
      );
    }
    budget.files--;
    const fetched = await this.fetchFile(target.href, budget, name);
    return parseDocument(fetched.text, name).document;
  }

  /**
   * GET `url` within the byte budget; FETCH_TIMEOUT or FETCH_ERROR when it does not answer 2xx.
   * `name` (a referenced file's path) opens the messages.
   */
  private async fetchFile(
    url: string,
    budget: { bytes: number },
    name?: string,
  ): Promise<{ text: string; url: URL }> {
    const prefix = name === undefined ? '' : `${name}: `;
    if (budget.bytes <= 0) {
      throw fail(
        'FETCH_ERROR',
        `${prefix}the files of the specification are larger than ${this.config.OUTBOUND_MAX_BYTES} bytes together.`,
      );
    }
    try {
      const response = await this.http.fetch(url, {
        headers: { accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' },
        maxBytes: budget.bytes,
      });
      budget.bytes -= response.body.length;
      if (response.status < 200 || response.status > 299) {
        throw fail('FETCH_ERROR', `${prefix}${response.url} answered HTTP ${response.status}.`);
      }
      return { text: response.body.toString('utf8'), url: new URL(response.url) };
    } catch (error) {
      if (!(error instanceof OutboundHttpError)) throw error;
      throw fail(
        error.code === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR',
        `${prefix}${error.message}`,
      );
    }
  }
}

/** Only OpenAPI 3.0, 3.1 and Swagger 2.0, said before Swagger Parser says it less clearly. */
function checkVersion(root: Record<string, unknown>, name: string): void {
  if (typeof root.openapi === 'string' && SUPPORTED_OPENAPI.test(root.openapi)) return;
  if (root.swagger === '2.0') return;
  const found =
    root.openapi !== undefined
      ? `openapi: ${JSON.stringify(root.openapi)}`
      : root.swagger !== undefined
        ? `swagger: ${JSON.stringify(root.swagger)}`
        : 'neither an openapi nor a swagger field';
  throw new ProcessingFailure([
    problem(
      'UNSUPPORTED_DOCUMENT',
      `${name}: not an OpenAPI 3.0, 3.1 or Swagger 2.0 document (${found}).`,
    ),
  ]);
}
