import { Injectable, Logger } from '@nestjs/common';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { UrlSigner, type SignedUrlQuery } from '../../platform/urls/url-signer';
import { fontFormatOf } from './font-files';

/** GitBook's `StorageUploadKind`. */
export const STORAGE_UPLOAD_KINDS = [
  'customization_font',
  'import_file',
  'organization_file',
] as const;
export type StorageUploadKind = (typeof STORAGE_UPLOAD_KINDS)[number];

/**
 * The kinds Bindery takes: a custom font's files (what `createCustomFont` reads) and files to
 * import (what `startImportRun` reads).
 */
export const SUPPORTED_UPLOAD_KINDS: readonly StorageUploadKind[] = [
  'customization_font',
  'import_file',
];

/**
 * The files an import takes, by extension: Markdown, HTML, Word (.docx) and ZIP archives (of
 * Markdown or HTML pages, a Confluence or a Notion export).
 */
export const IMPORT_FILE_EXTENSIONS = ['.md', '.markdown', '.html', '.htm', '.docx', '.zip'];

/** An import file's extension (lower case), or null when an import does not take it. */
export function importFileExtension(name: string): string | null {
  const lower = name.toLowerCase();
  return IMPORT_FILE_EXTENSIONS.find((extension) => lower.endsWith(extension)) ?? null;
}

/** A file uploaded to be imported: its name as declared when its URL was asked for. */
export interface UploadedImportFile {
  name: string;
  bytes: Buffer;
}

/** How long an upload URL stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 60 * 60;

/** The parts of an upload URL's path: the organization, the kind and the upload's own id. */
export interface UploadTarget {
  organizationId: string;
  kind: string;
  uploadId: string;
}

/** An id of an organization or an upload, as it may appear in a blob key and a URL. */
const ID_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

const invalidSignature = () =>
  new DomainError('forbidden', 'InvalidUploadSignature', 'The upload URL is not valid.');
const expired = () =>
  new DomainError(
    'forbidden',
    'UploadURLExpired',
    'The upload URL has expired; ask generateStorageUploadURL for a fresh one.',
  );

/**
 * Uploads of files by signed URL, as GitBook takes them into its bucket: an admin asks
 * `generateStorageUploadURL` for a URL and a key, sends the bytes to the URL with a PUT (no
 * token: the URL's signature is the authorization, for UPLOAD_URL_TTL_SECONDS), and names the
 * key in the operation that uses the file (`createCustomFont`), which takes it over. Each kind
 * checks what it receives; an upload is kept under `uploads/<organization>/<kind>/<id>` in the
 * blob store until it is taken.
 */
@Injectable()
export class StorageUploads {
  private readonly logger = new Logger('StorageUploads');
  private readonly signer: UrlSigner;

  constructor(
    secret: InstanceSecret,
    clock: Clock,
    private readonly urls: UrlBuilder,
    private readonly blobs: BlobStore,
    private readonly config: AppConfig,
  ) {
    this.signer = new UrlSigner(secret, clock, 'bindery-storage-upload-v1', UPLOAD_URL_TTL_SECONDS);
  }

  /** The largest file of `kind`, in bytes. */
  maxBytes(kind: StorageUploadKind): number {
    switch (kind) {
      case 'customization_font':
        return this.config.CUSTOM_FONT_MAX_BYTES;
      case 'import_file':
        return this.config.IMPORT_FILE_MAX_BYTES;
      default:
        return 0;
    }
  }

  /**
   * A URL to PUT a file of `kind` of `size` bytes to, and the key that names it once there. An
   * import file's name must have an extension an import takes; the name is kept beside the
   * upload (`<key>.name`), for the import to read.
   */
  async signedUpload(
    organizationId: string,
    kind: StorageUploadKind,
    size: number,
    name = '',
  ): Promise<{ url: string; key: string }> {
    if (!SUPPORTED_UPLOAD_KINDS.includes(kind)) {
      throw invalidInput(
        `kind: Bindery takes uploads of ${SUPPORTED_UPLOAD_KINDS.join(', ')} only (got ${kind}).`,
      );
    }
    const max = this.maxBytes(kind);
    if (size > max) {
      throw invalidInput(`file.size: a ${kind} file may be at most ${max} bytes (got ${size}).`);
    }
    if (kind === 'import_file' && importFileExtension(name) === null) {
      throw invalidInput(
        `file.name: an import takes ${IMPORT_FILE_EXTENSIONS.join(', ')} files (got ${JSON.stringify(name)}).`,
      );
    }
    const target: UploadTarget = { organizationId, kind, uploadId: newId() };
    if (kind === 'import_file') await this.blobs.put(nameKeyOf(target), Buffer.from(name, 'utf8'));
    const expires = this.signer.expiresFromNow();
    const query = new URLSearchParams({
      expires: String(expires),
      signature: this.signer.sign(signedParts(target, expires)),
    });
    return {
      url: `${this.urls.api('storage', ...keyOf(target).split('/'))}?${query.toString()}`,
      key: keyOf(target),
    };
  }

  /**
   * Receives the bytes sent to an upload URL: 403 unless its signature holds and it has not
   * expired, 413 past the kind's size, 400 when they are not a file of the kind.
   */
  async receive(
    target: UploadTarget,
    query: SignedUrlQuery,
    body: AsyncIterable<Buffer>,
    declaredLength: number | undefined,
  ): Promise<void> {
    if (!ID_SEGMENT.test(target.organizationId) || !ID_SEGMENT.test(target.uploadId)) {
      throw invalidSignature();
    }
    const verdict = this.signer.verify(query, (expires) => signedParts(target, expires));
    if (!verdict.valid) throw verdict.reason === 'expired' ? expired() : invalidSignature();
    const kind = target.kind as StorageUploadKind;
    const max = this.maxBytes(kind);
    if (declaredLength !== undefined && declaredLength > max) throw tooLarge(kind, max);
    const bytes = await readAtMost(body, max, () => tooLarge(kind, max));
    const name =
      kind === 'import_file'
        ? ((await this.blobs.get(nameKeyOf(target)))?.toString('utf8') ?? '')
        : '';
    const problem = fileProblem(kind, bytes, name);
    if (problem !== null) throw invalidInput(problem);
    await this.blobs.put(keyOf(target), bytes);
  }

  /**
   * The bytes uploaded under `key` as a file of `kind` for the organization, or null when
   * there are none (another organization's key, another kind's, never sent, or taken).
   */
  async uploaded(
    organizationId: string,
    kind: StorageUploadKind,
    key: string,
  ): Promise<Buffer | null> {
    const target = targetOf(key);
    if (!target || target.organizationId !== organizationId || target.kind !== kind) return null;
    return this.blobs.get(key);
  }

  /**
   * A file uploaded under `key` to be imported into the organization, with its name; null when
   * there is none (another organization's key, another kind's, never sent, or taken).
   */
  async uploadedImportFile(
    organizationId: string,
    key: string,
  ): Promise<UploadedImportFile | null> {
    const target = targetOf(key);
    if (!target || target.organizationId !== organizationId || target.kind !== 'import_file') {
      return null;
    }
    const bytes = await this.blobs.get(key);
    if (!bytes) return null;
    const name = (await this.blobs.get(nameKeyOf(target)))?.toString('utf8') || 'upload';
    return { name, bytes };
  }

  /** Whether a file was uploaded under `key` to be imported into the organization. */
  async hasImportFile(organizationId: string, key: string): Promise<boolean> {
    const target = targetOf(key);
    if (!target || target.organizationId !== organizationId || target.kind !== 'import_file') {
      return false;
    }
    return (await this.blobs.size(key)) !== null;
  }

  /** Removes uploads once the operation that took them has kept their bytes elsewhere. */
  async discard(keys: Iterable<string>): Promise<void> {
    for (const key of new Set(keys)) {
      const target = targetOf(key);
      if (!target) continue;
      // Left behind, an upload costs only its space: the operation that took it stands.
      const keys = target.kind === 'import_file' ? [key, nameKeyOf(target)] : [key];
      for (const each of keys) {
        await this.blobs.delete(each).catch((error: unknown) => {
          this.logger.warn({ err: error, key: each }, 'Could not remove a taken upload');
        });
      }
    }
  }
}

/** What is wrong with `bytes` as a file of `kind`, or null when nothing is. */
function fileProblem(kind: StorageUploadKind, bytes: Buffer, name: string): string | null {
  switch (kind) {
    case 'customization_font':
      return fontFormatOf(bytes) === null
        ? 'The file is not a font: a WOFF2, WOFF, TrueType or OpenType file is expected.'
        : null;
    case 'import_file':
      return importFileProblem(bytes, name);
    default:
      return `Bindery takes no uploads of ${kind}.`;
  }
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/**
 * What is wrong with `bytes` as the import file `name`: a .docx or .zip must be a ZIP archive,
 * a Markdown or HTML file UTF-8 text.
 */
function importFileProblem(bytes: Buffer, name: string): string | null {
  const extension = importFileExtension(name);
  if (extension === '.zip' || extension === '.docx') {
    const head = bytes.subarray(0, 4);
    return head.equals(ZIP_SIGNATURE) || head.equals(EMPTY_ZIP_SIGNATURE)
      ? null
      : `The file is not a ${extension === '.zip' ? 'ZIP archive' : 'Word (.docx) document'}.`;
  }
  if (extension === null) return `Bindery does not import ${JSON.stringify(name)}.`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'The file is not UTF-8 text: a Markdown or HTML file is expected.';
  }
  return bytes.includes(0) ? 'The file is not text: a Markdown or HTML file is expected.' : null;
}

function tooLarge(kind: string, max: number): DomainError {
  return new DomainError(
    'payload_too_large',
    'PayloadTooLarge',
    `The file is too large: a ${kind} file may be at most ${max} bytes.`,
  );
}

async function readAtMost(
  body: AsyncIterable<Buffer>,
  max: number,
  tooLong: () => Error,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > max) throw tooLong();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw invalidInput('The request was aborted before the whole file arrived.');
  }
  return Buffer.concat(chunks);
}

function keyOf(target: UploadTarget): string {
  return `uploads/${target.organizationId}/${target.kind}/${target.uploadId}`;
}

/** Where an import file's declared name is kept (no upload key has a dot: never one's key). */
function nameKeyOf(target: UploadTarget): string {
  return `${keyOf(target)}.name`;
}

/** The upload a key names, or null when it names none (the key comes from a request body). */
function targetOf(key: string): UploadTarget | null {
  const [prefix, organizationId, kind, uploadId, ...rest] = key.split('/');
  if (prefix !== 'uploads' || rest.length > 0) return null;
  if (!ID_SEGMENT.test(organizationId ?? '') || !ID_SEGMENT.test(uploadId ?? '')) return null;
  if (!SUPPORTED_UPLOAD_KINDS.includes(kind as StorageUploadKind)) return null;
  return { organizationId, kind, uploadId };
}

function signedParts(target: UploadTarget, expires: number): (string | number)[] {
  return [target.organizationId, target.kind, target.uploadId, expires];
}
