import { Injectable, Logger } from '@nestjs/common';
import type { JSONDocument } from '../../content-engine/documents/document';
import { blobKeyOf, MAX_FILE_BYTES } from '../../content-engine/files/file-content';
import {
  ContentReader,
  type FileObject,
  type ReadRevision,
} from '../../content-engine/reads/content-reader';
import type { PageNode } from '../../content-engine/tree/format';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { OutboundHttp } from '../../platform/outbound-http';
import { imageFiles, imageUrls, layoutDocument, mathFormulas } from './document-layout';
import { printableImage, type PrintableImage } from './image-check';
import { mathSvg, type MathSvg } from './math-svg';
import { PdfWriter, type PrintedFiles } from './pdf-writer';
import type { PageToPrint } from './printed-pages';

/** Largest image fetched from the web for a PDF, and how long the fetch may take. */
const WEB_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const WEB_IMAGE_TIMEOUT_MS = 5_000;

/**
 * Prints pages of a revision into a PDF writer, one page at a time: a page's document is read,
 * laid out, its images and formulas prepared, and the page written before the next is read.
 * Shared by the PDFs of change requests and of spaces.
 */
@Injectable()
export class RevisionPrinter {
  private readonly logger = new Logger(RevisionPrinter.name);

  constructor(
    private readonly reader: ContentReader,
    private readonly blobs: BlobStore,
    private readonly http: OutboundHttp,
  ) {}

  /**
   * Prints `pages` and ends the PDF, in the background of the response that streams it. A
   * failure half-way can no longer be answered as an error, so it is logged and the stream
   * destroyed (the client sees a broken download, not a short PDF).
   */
  start(writer: PdfWriter, revision: ReadRevision, pages: PageToPrint[], what: string): void {
    void (async () => {
      try {
        await this.write(writer, revision, pages);
        if (!writer.document.destroyed) writer.end();
      } catch (error) {
        this.logger.error(
          `PDF of ${what} failed: ${String(error)}`,
          error instanceof Error ? error.stack : undefined,
        );
        writer.document.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    })();
  }

  private async write(writer: PdfWriter, revision: ReadRevision, pages: PageToPrint[]) {
    const files = new Map(
      (await this.reader.listAllFiles(revision)).map((file) => [file.id, file] as const),
    );
    const titles = new Map(pages.map(({ node }) => [node.id, node.meta.title] as const));
    const context = { pageTitle: (id: string) => titles.get(id) };
    // Images already handed to the writer, which keeps them for later pages.
    const loaded = new Set<string>();
    const formulas = new Map<string, MathSvg | undefined>();
    for (const { node, depth } of pages) {
      // The response is gone (the client went away): stop reading.
      if (writer.document.destroyed) return;
      const document = await this.documentOf(revision, node);
      const blocks = document ? layoutDocument(document, context) : [];
      const images = new Map<string, PrintableImage>();
      for (const fileId of imageFiles(blocks)) {
        if (loaded.has(fileId)) continue;
        loaded.add(fileId);
        const image = await this.loadImage(files.get(fileId));
        if (image) images.set(fileId, image);
      }
      for (const url of imageUrls(blocks)) {
        if (loaded.has(url)) continue;
        loaded.add(url);
        const image = await this.fetchImage(url);
        if (image) images.set(url, image);
      }
      for (const { formula, display } of mathFormulas(blocks)) {
        const key = `${display ? 'd' : 'i'}${formula}`;
        if (!formulas.has(key)) formulas.set(key, await mathSvg(formula, display));
      }
      const printedFiles: PrintedFiles = {
        image: (key) => images.get(key),
        name: (id) => files.get(id)?.name,
        math: (formula, display) => formulas.get(`${display ? 'd' : 'i'}${formula}`),
      };
      writer.page({ title: titleOf(node), depth, blocks, href: hrefOf(node) }, printedFiles);
    }
  }

  private async documentOf(revision: ReadRevision, node: PageNode): Promise<JSONDocument | null> {
    if (node.type !== 'document' || node.document === null) return null;
    const { body } = await this.reader.getPage(revision, node.id, 'document');
    return 'document' in body ? body.document : null;
  }

  /** An image file a PDF can show (PNG, JPEG, GIF, SVG, by its bytes); undefined otherwise. */
  private async loadImage(file: FileObject | undefined): Promise<PrintableImage | undefined> {
    if (!file?.blob || file.size > MAX_FILE_BYTES) return undefined;
    const data = await this.blobs.get(blobKeyOf(file.blob));
    return data ? printableImage(data) : undefined;
  }

  /**
   * An image on the web, fetched like every URL a user gives (public addresses only, bounded in
   * size and time); undefined when it cannot be had, and its caption prints instead.
   */
  private async fetchImage(url: string): Promise<PrintableImage | undefined> {
    try {
      const response = await this.http.fetch(url, {
        timeoutMs: WEB_IMAGE_TIMEOUT_MS,
        maxBytes: WEB_IMAGE_MAX_BYTES,
        headers: { accept: 'image/*' },
      });
      if (response.status !== 200) return undefined;
      return printableImage(response.body);
    } catch (error) {
      this.logger.warn(`Image ${url} not printed: ${String(error)}`);
      return undefined;
    }
  }
}

function titleOf(node: PageNode): string {
  if (typeof node.meta.title === 'string' && node.meta.title !== '') return node.meta.title;
  return node.type === 'link' ? 'Link' : 'Untitled';
}

/** Where a link page goes: its resolved URL, or a URL target. */
function hrefOf(node: PageNode): string | undefined {
  if (node.type !== 'link') return undefined;
  if (typeof node.meta.href === 'string') return node.meta.href;
  const target = node.meta.target as { kind?: unknown; url?: unknown } | undefined;
  return target?.kind === 'url' && typeof target.url === 'string' ? target.url : undefined;
}
