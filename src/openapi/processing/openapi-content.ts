import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIFilesystem } from '../entities/openapi-spec-version.entity';
import { relativePath } from './openapi-documents';

/** What it takes to read a version's documents again: where the root was, and the files. */
export interface StoredSpec {
  rootPath: string;
  sourceUrl: string | null;
  filesystem: OpenAPIFilesystem;
}

/**
 * A base of a scheme of our own for re-reading a version: the same paths as where the documents
 * came from (so relative `$ref`s land on the same keys), nothing ever fetched, and relative
 * `servers` left alone (Swagger Parser rewrites them against http(s) bases only).
 */
function memoryBase(spec: StoredSpec): URL {
  if (spec.sourceUrl === null) return new URL(`bindery-spec://spec/${spec.rootPath}`);
  const source = new URL(spec.sourceUrl);
  return new URL(`bindery-spec://spec${source.pathname}${source.search}`);
}

function parserOptions(spec: StoredSpec, base: URL) {
  const read = (file: { url: string }) => {
    const key = relativePath(base, new URL(file.url));
    if (!(key in spec.filesystem)) throw new Error(`No file ${key} in the specification`);
    return structuredClone(spec.filesystem[key]);
  };
  return {
    resolve: { file: false, http: false, memory: { order: 1, canRead: true, read } } as never,
    dereference: { circular: 'ignore' as const },
  };
}

function root(spec: StoredSpec): never {
  return structuredClone(spec.filesystem[spec.rootPath]) as never;
}

/**
 * The root document with every `$ref` replaced by what it points to (in this file or another of
 * the version), except circular ones, which stay `$ref`s.
 */
export async function dereferencedDocument(spec: StoredSpec): Promise<Record<string, unknown>> {
  const base = memoryBase(spec);
  const document = await new SwaggerParser().dereference(
    base.href,
    root(spec),
    parserOptions(spec, base),
  );
  return document as unknown as Record<string, unknown>;
}

/** The version as one document: other files' parts moved in, `$ref`s made internal. */
export async function bundledDocument(spec: StoredSpec): Promise<Record<string, unknown>> {
  if (Object.keys(spec.filesystem).length === 1) {
    return spec.filesystem[spec.rootPath] as Record<string, unknown>;
  }
  const base = memoryBase(spec);
  const document = await new SwaggerParser().bundle(
    base.href,
    root(spec),
    parserOptions(spec, base),
  );
  return document as unknown as Record<string, unknown>;
}
