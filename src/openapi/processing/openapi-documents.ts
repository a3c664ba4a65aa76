import { posix } from 'node:path';
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import { fail } from './openapi-problems';

/** Nodes a parsed document may expand to (YAML aliases repeat a node at each use). */
export const MAX_DOCUMENT_NODES = 2_000_000;

/** Nesting a YAML document may reach. */
const MAX_YAML_DEPTH = 1000;

export type DocumentFormat = 'json' | 'yaml';

export interface ParsedDocument {
  document: Record<string, unknown>;
  format: DocumentFormat;
}

/**
 * Parses a specification file: JSON when it reads as JSON, else YAML (1.2 core schema: no
 * custom tags, dates stay strings). `name` names the file in messages. A document must be an
 * object (a mapping).
 */
export function parseDocument(text: string, name: string): ParsedDocument {
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trimStart();
  let value: unknown;
  let format: DocumentFormat = 'yaml';
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      value = JSON.parse(body);
      format = 'json';
    } catch {
      // Not JSON after all: YAML's flow style reads it, or says where it is wrong.
    }
  }
  if (format === 'yaml') {
    try {
      value = load(body, { schema: CORE_SCHEMA, maxDepth: MAX_YAML_DEPTH, filename: name });
    } catch (error) {
      throw fail('SYNTAX_ERROR', syntaxMessage(error, name));
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail(
      'SYNTAX_ERROR',
      `${name}: not a JSON or YAML object (an OpenAPI document is a mapping of fields).`,
    );
  }
  if (countNodes(value, MAX_DOCUMENT_NODES) > MAX_DOCUMENT_NODES) {
    throw fail(
      'SYNTAX_ERROR',
      `${name}: the document expands to more than ${MAX_DOCUMENT_NODES} values (YAML aliases?).`,
    );
  }
  return { document: value as Record<string, unknown>, format };
}

function syntaxMessage(error: unknown, name: string): string {
  if (error instanceof YAMLException) {
    const mark = error.mark;
    const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : '';
    return `${name}: invalid JSON or YAML${where}: ${error.reason}.`;
  }
  return `${name}: invalid JSON or YAML: ${error instanceof Error ? error.message : String(error)}.`;
}

/**
 * Values of `value` counted as JSON would write them (a shared node once per use), stopping
 * past `limit`: what guards against documents that alias their way to exponential size.
 */
export function countNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop();
    count++;
    if (typeof node === 'object' && node !== null) {
      for (const child of Object.values(node)) stack.push(child);
    }
  }
  return count;
}

/**
 * The filesystem key of the file at `target`, relative to the folder of the root document at
 * `root` (both absolute URLs of one origin): `schemas/pet.yaml`, `../common/errors.yaml`.
 */
export function relativePath(root: URL, target: URL): string {
  const rootPathname = decodePath(root.pathname);
  const folder = rootPathname.slice(0, rootPathname.lastIndexOf('/') + 1) || '/';
  const pathname = decodePath(target.pathname);
  return `${posix.relative(folder, pathname) || pathname}${target.search}`;
}

/** The filesystem key of the root document at `url`: its file name, or `openapi`. */
export function rootPath(url: URL): string {
  const pathname = decodePath(url.pathname);
  return `${pathname.slice(pathname.lastIndexOf('/') + 1) || 'openapi'}${url.search}`;
}

/** A URL path as its author wrote it (`my schema.yaml`), or as is when it does not decode. */
function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
