/** The converters' types (import-tree.ts gives them out with the converters). */

export interface ImportTree {
  /** A GitBook Git Sync layout: path → bytes (README.md, SUMMARY.md, pages' .md, .gitbook/assets/*). */
  files: Map<string, Buffer>;
  /** Markdown page path in `files` → where it came from (a URL, or the uploaded file's name/path). */
  sources: Map<string, string>;
}

export interface ConvertContext {
  /** Cancelled: stop soon, throw signal.reason. */
  signal: AbortSignal;
  progress(done: number, total: number): Promise<void> | void;
  /** Per-page warnings, shown to the user. */
  warn(message: string): void;
}

export interface UploadedFile {
  name: string;
  contentType?: string;
  bytes: Buffer;
}

export interface CrawlOptions {
  startUrl: string;
  maxPages: number;
  fetch: (
    url: string,
    signal: AbortSignal,
  ) => Promise<{ status: number; url: string; contentType: string | undefined; body: Buffer }>;
}
