import { extname } from 'node:path';
import { imageSize } from 'image-size';
import { charset as mimeCharset, lookup } from 'mime-types';
import { invalidInput } from '../../platform/errors/domain-error';
import { sha256Hex } from '../../platform/ids/ids';
import type { FileNode } from '../tree/format';

/** Largest file accepted (REFERENCE §16: `insert_files` base64 ≤ 1 MB), in bytes. */
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_FILE_NAME_LENGTH = 256;

/** A file's bytes are stored once, under the SHA-256 of their content. */
export function blobKeyOf(blob: string): string {
  return `sha256/${blob}`;
}

/** `type/subtype` with optional parameters, no control characters (it becomes a header). */
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;[\x20-\x7e]*)?$/i;

const IMAGE_TYPES: Record<string, string> = {
  avif: 'image/avif',
  bmp: 'image/bmp',
  gif: 'image/gif',
  heif: 'image/heif',
  icns: 'image/icns',
  ico: 'image/vnd.microsoft.icon',
  jpg: 'image/jpeg',
  jxl: 'image/jxl',
  png: 'image/png',
  svg: 'image/svg+xml',
  tiff: 'image/tiff',
  webp: 'image/webp',
};

/**
 * Where the MIME database and the types Bindery has always given disagree, the latter: YAML's
 * registered type (RFC 9512) rather than the database's older `text/yaml`.
 */
const BY_EXTENSION: Record<string, string> = {
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

/** What the bytes are, as far as image-size knows them; never throws. */
function probeImage(data: Buffer): { type?: string; width?: number; height?: number } {
  try {
    return imageSize(data);
  } catch {
    return {};
  }
}

/**
 * The content type of `data` when none is given: image formats and PDF by their bytes, else
 * the name's extension as the MIME database (`mime-types`) knows it, else
 * `application/octet-stream`. Active types (HTML, SVG, JavaScript) are named as they are: the
 * download route serves every file under a sandboxing Content-Security-Policy and `nosniff`.
 */
export function sniffContentType(name: string, data: Buffer): string {
  const image = probeImage(data).type;
  if (image && IMAGE_TYPES[image]) {
    return IMAGE_TYPES[image];
  }
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') {
    return 'application/pdf';
  }
  const extension = extname(name).toLowerCase();
  return BY_EXTENSION[extension] || lookup(extension) || 'application/octet-stream';
}

/** JSON and YAML types the MIME database gives no charset (`application/yaml`, `…+json`). */
const STRUCTURED_TEXT = /^application\/(?:[a-z0-9.-]+\+)?(?:json|yaml)$/;

/**
 * The Content-Type header for a file of `contentType`: with `charset=utf-8` added to text types
 * that name no charset (`text/*`, JSON, YAML…), as the MIME database says; otherwise as given.
 */
export function servedContentType(contentType: string): string {
  if (/;\s*charset=/i.test(contentType)) return contentType;
  const [essence] = contentType.split(';');
  const type = essence.trim().toLowerCase();
  const textual = mimeCharset(type) || (STRUCTURED_TEXT.test(type) ? 'UTF-8' : false);
  return textual ? `${contentType}; charset=${textual.toLowerCase()}` : contentType;
}

/** Width and height of an image in pixels; undefined for anything image-size cannot read. */
export function imageDimensions(data: Buffer): { width: number; height: number } | undefined {
  const { width, height } = probeImage(data);
  return typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0
    ? { width, height }
    : undefined;
}

export interface FileUpload {
  /** The file's id in the revision (generated when omitted). */
  id: string;
  /** 1..256 characters. */
  name: string;
  /** Sniffed from the bytes (and name) when omitted. */
  contentType?: string;
  data: Buffer;
}

/**
 * The `file` object describing an upload, checked: a 400 names the file when it is too large,
 * badly named or has an invalid content type. Images get their dimensions.
 */
export function describeFile(upload: FileUpload): FileNode {
  const { name, data } = upload;
  checkFileName(name);
  if (data.length > MAX_FILE_BYTES) {
    throw invalidInput(
      `File ${JSON.stringify(name)} is ${data.length} bytes; the limit is ${MAX_FILE_BYTES} bytes (1 MB).`,
    );
  }
  return describeFileBytes({
    id: upload.id,
    name,
    contentType: upload.contentType,
    size: data.length,
    blob: sha256Hex(data),
    head: data,
  });
}

/** How much of a file's start tells its kind and, for an image, its dimensions. */
export const FILE_HEAD_BYTES = 512 * 1024;

/**
 * The `file` object of bytes known by their size, SHA-256 and start (`head`, FILE_HEAD_BYTES
 * of them, or all): a file read as a stream. A 400 names the file when it is badly named or has
 * an invalid content type.
 */
export function describeFileBytes(facts: {
  id: string;
  name: string;
  contentType?: string;
  size: number;
  blob: string;
  head: Buffer;
}): FileNode {
  const { name, head } = facts;
  checkFileName(name);
  const contentType = facts.contentType ?? sniffContentType(name, head);
  if (!CONTENT_TYPE.test(contentType)) {
    throw invalidInput(
      `File ${JSON.stringify(name)}: ${JSON.stringify(contentType)} is not a content type.`,
    );
  }
  const dimensions = contentType.toLowerCase().startsWith('image/')
    ? imageDimensions(head)
    : undefined;
  return {
    id: facts.id,
    name,
    contentType,
    size: facts.size,
    blob: facts.blob,
    ...(dimensions ? { dimensions } : {}),
  };
}

function checkFileName(name: unknown): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_FILE_NAME_LENGTH) {
    throw invalidInput(`A file name must have 1 to ${MAX_FILE_NAME_LENGTH} characters.`);
  }
}
