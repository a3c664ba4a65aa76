import { posix } from 'node:path';

export const PAGE_EXTENSIONS = /\.(md|markdown|mdx|html?|docx)$/i;
export const MARKDOWN_EXTENSIONS = /\.(md|markdown|mdx)$/i;

/** A link or image target split into the file it names and its anchor. */
export interface Target {
  path: string;
  anchor?: string;
}

/**
 * The files of an import by path, and how a relative link in one of them names another:
 * percent-encoded or not, with or without its extension (`./install` for `install.md`), a
 * folder for its index file.
 */
export class FileSet {
  readonly folders = new Set<string>();
  /** Paths by their lower-cased form (the first of each). */
  private readonly lowerCased = new Map<string, string>();

  constructor(readonly files: ReadonlyMap<string, Buffer>) {
    for (const path of files.keys()) {
      if (!this.lowerCased.has(path.toLowerCase())) this.lowerCased.set(path.toLowerCase(), path);
      for (let dir = posix.dirname(path); dir !== '.'; dir = posix.dirname(dir))
        this.folders.add(dir);
    }
  }

  /** The file or folder `target` names from the file at `from`; undefined for URLs and misses. */
  resolve(from: string, target: string): Target | undefined {
    const trimmed = target.trim();
    if (!trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('//'))
      return undefined;
    const hash = trimmed.indexOf('#');
    const anchor = hash >= 0 ? trimmed.slice(hash + 1) : undefined;
    let pathPart = (hash >= 0 ? trimmed.slice(0, hash) : trimmed).replace(/\?.*$/, '');
    if (!pathPart) return undefined;
    try {
      pathPart = decodeURIComponent(pathPart);
    } catch {
      // Not percent-encoded.
    }
    const dir = posix.dirname(from) === '.' ? '' : posix.dirname(from);
    const joined = pathPart.startsWith('/')
      ? posix.normalize(pathPart.slice(1))
      : posix.normalize(posix.join(dir, pathPart));
    if (joined.startsWith('..')) return undefined;
    const base = joined.replace(/\/+$/, '');
    const found =
      this.find(base) ?? (pathPart.startsWith('/') ? this.findBelowRoot(base) : undefined);
    return found === undefined ? undefined : { path: found, ...(anchor ? { anchor } : {}) };
  }

  private find(base: string): string | undefined {
    if (base === '.' || base === '') return this.folders.size > 0 ? '' : undefined;
    const candidates = [base, `${base}.md`, `${base}.mdx`, `${base}.html`, `${base}.htm`];
    for (const candidate of candidates) if (this.files.has(candidate)) return candidate;
    if (this.folders.has(base)) return `${base}/`;
    // Case differences (archives made on Windows or macOS).
    for (const candidate of candidates) {
      const found = this.lowerCased.get(candidate.toLowerCase());
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** A root-relative link (`/guide/install`) of a site whose pages sit in a folder (`docs/`). */
  private findBelowRoot(base: string): string | undefined {
    // Docs folders, and the folders sites serve files from at their root (Docusaurus' static/).
    for (const folder of ['docs', 'content', 'src', 'static', 'public']) {
      if (this.folders.has(folder)) {
        const found = this.find(`${folder}/${base}`);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  }
}
