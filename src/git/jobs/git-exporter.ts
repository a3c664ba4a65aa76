import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { posix } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { ContentEngine } from '../../content-engine/content-engine';
import { ContentObjectsRepository } from '../../content-engine/content-objects.repository';
import type { JSONDocument } from '../../content-engine/documents/document';
import { Revision, type RevisionGit } from '../../content-engine/entities/revision.entity';
import { blobKeyOf } from '../../content-engine/files/file-content';
import { BatchedObjectStore } from '../../content-engine/reads/batched-object-store';
import {
  ContentReader,
  type FileObject,
  type PageTree,
} from '../../content-engine/reads/content-reader';
import {
  ASSETS_DIR,
  DEFAULT_README,
  DEFAULT_SUMMARY,
} from '../../content-engine/refs/markdown-paths';
import type { ObjectStore } from '../../content-engine/tree/object-store';
import { ContentHeads } from '../../content-engine/writes/content-heads';
import type { ContentChange } from '../../content-engine/writes/content-writer';
import { ContentWriter } from '../../content-engine/writes/content-writer';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { Clock } from '../../platform/clock/clock';
import { DomainError } from '../../platform/errors/domain-error';
import { sha256Hex } from '../../platform/ids/ids';
import type {
  GitSyncState,
  SyncedEntry,
  SyncedLayout,
  SyncedRedirect,
} from '../entities/git-sync-state.entity';
import { GitSyncsRepository } from '../git-syncs.repository';
import { GITBOOK_YAML, type LayoutPage } from '../layout/layout';
import { readLayoutConfig } from '../layout/layout-reader';
import { renderSummary } from '../layout/layout-writer';
import { RefNotFound, type StreamedFile } from '../remote/git-repository';
import { layoutPageOf, renderPageFile, staysLinkless, summaryPages } from '../sync/page-files';
import { SiteConfigSync } from '../sync/site-config-sync';
import { newSyncState, previousEntries, relativeTo, repositoryKey } from '../sync/sync-state';
import { planSyncedPaths } from '../sync/synced-paths';
import { commitUrl, GitSyncFailure, type GitOperationContext, type GitOutcome } from './git-job';

/** The author and committer of exported commits. */
const COMMITTER = { name: 'Bindery', email: 'bindery@localhost' };

const DEFAULT_LAYOUT: SyncedLayout = { root: '', readme: DEFAULT_README, summary: DEFAULT_SUMMARY };

/**
 * Exports the space's primary revision into the repository, as the changes since the last sync
 * (src/git/sync):
 *
 * - the repository's layout stays: its root, readme and summary files, and the file of every
 *   page and file it had; new pages go beside their parent's file. A space never synced gets
 *   GitBook's default layout;
 * - only what changed in the space since the last sync is written: a page whose file Bindery
 *   would write as it did then keeps the repository's file as it is (edits made in Git
 *   meanwhile included), and so do the summary, `.gitbook.yaml` and unchanged files; files of
 *   pages and files deleted since are removed, and nothing else of the repository is touched;
 * - no change, no commit.
 *
 * A commit is pushed on top of the ref's head (or as its first commit) and recorded: a revision
 * on top of the exported one whose pages and files carry their new blob in `git`, with the
 * commit (`createdByDocs: true`). When the primary moved meanwhile, the exported revision only
 * gets the commit in `git`.
 */
@Injectable()
export class GitExporter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly heads: ContentHeads,
    private readonly objects: ContentObjectsRepository,
    private readonly engine: ContentEngine,
    private readonly reader: ContentReader,
    private readonly writer: ContentWriter,
    private readonly blobs: BlobStore,
    private readonly syncs: GitSyncsRepository,
    private readonly clock: Clock,
    private readonly siteConfigs: SiteConfigSync,
  ) {}

  async run(context: GitOperationContext): Promise<GitOutcome> {
    const { job, workspace, target } = context;
    const revisionId = await this.primaryOf(job.spaceId);
    const revision = await this.reader.readRevision(job.spaceId, revisionId);
    const [trees, fileObjects] = await Promise.all([
      this.reader.listPages(revision),
      this.reader.listAllFiles(revision),
    ]);
    // Files whose bytes Bindery holds (others cannot be written).
    const files = fileObjects.filter((file): file is HeldFile => typeof file.blob === 'string');

    let parent: string | null = null;
    try {
      parent = await workspace.fetchHead(target);
    } catch (error) {
      if (!(error instanceof RefNotFound)) throw error;
    }
    const repository = parent
      ? await workspace.listFiles(parent)
      : new Map<string, { oid: string }>();
    const inDirectory = (path: string) => posix.join(job.directory, path);
    const configFile = repository.get(inDirectory(GITBOOK_YAML));
    const configData = configFile ? await workspace.readBlob(configFile.oid) : undefined;

    // The redirects are the space's: they follow it to another repository too.
    const latest = await this.syncs.findLatestState(job.spaceId);
    const state = await this.syncs.findState(job.spaceId, repositoryKey(job));
    // A repository without layout of its own takes the space's, from its latest sync elsewhere.
    const layout: SyncedLayout =
      state?.layout ??
      (configData ? readLayoutConfig(configData) : (latest?.layout ?? DEFAULT_LAYOUT));
    const contentRoot = posix.join(job.directory, layout.root);
    const inRoot = (path: string) => posix.join(contentRoot, path);
    const pageNodes = new Map<string, { node: PageTree['node'] }>();
    const indexNodes = (list: PageTree[]) =>
      list.forEach((tree) => {
        pageNodes.set(tree.node.id, tree);
        indexNodes(tree.pages);
      });
    indexNodes(trees);
    // Without a state, the paths the pages' `git` names, where the repository still has them.
    const recorded = previousEntries(state, layout.root, {
      directory: job.directory,
      pages: pageNodes,
      files: new Map(files.map((node) => [node.id, { node }])),
    });
    const previous = new Map(
      [...recorded].filter(([path]) => state || repository.has(inRoot(path))),
    );
    const previousPaths = {
      pages: new Map<string, string>(),
      files: new Map<string, string>(),
    };
    // Pages and files keep the paths their `git` names in another repository too (a space
    // imported from one, exported to an empty one, comes back in its layout).
    for (const [path, entry] of recorded) {
      (entry.kind === 'page' ? previousPaths.pages : previousPaths.files).set(entry.id, path);
    }
    // Paths of the repository under the root that the last sync did not write: new names avoid them.
    const occupied = new Set<string>();
    for (const path of repository.keys()) {
      const relative = relativeTo(path, contentRoot);
      if (relative !== undefined && !previous.has(relative)) occupied.add(relative);
    }

    const pages = trees.flatMap((tree) => layoutPageOf(toLike(tree), job.directory));
    const paths = planSyncedPaths(pages, files, previousPaths, occupied);
    const documents = await this.loadDocuments(trees);
    const byId = new Map<string, LayoutPage>();
    const indexPages = (list: LayoutPage[]) =>
      list.forEach((page) => {
        byId.set(page.id, page);
        indexPages(page.pages);
      });
    indexPages(pages);
    // Entries SUMMARY.md listed without a link stay without a file while they hold nothing.
    for (const page of byId.values()) {
      if (await staysLinkless(page, documents.get(page.id))) paths.pages.delete(page.id);
    }
    const total = paths.pages.size + files.length;
    let done = 0;
    await context.progress(0, total);

    const writes = new Map<string, Buffer | StreamedFile>();
    const entries: Record<string, SyncedEntry> = {};
    /** Paths kept as the repository has them, with the blob the last sync recorded. */
    const keptOids = new Map<string, string>();
    // What the repository changed since the last sync (pages and files edited, added or
    // deleted): an export would undo it, so it waits for an import, unless forced.
    const changedInRepository =
      state && parent !== state.commit ? changedSince(state, repository, contentRoot) : [];
    if (changedInRepository.length > 0 && !job.force) {
      const shown = changedInRepository.slice(0, 10).map(inRoot);
      const more = changedInRepository.length - shown.length;
      throw new GitSyncFailure(
        `The repository changed since the last sync (${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}): ` +
          'import it first, or export with force to overwrite those changes.',
      );
    }
    for (const [pageId, path] of paths.pages) {
      const page = byId.get(pageId)!;
      const bytes = await renderPageFile(page, documents.get(pageId), path, paths);
      const rendered = sha256Hex(bytes);
      const entry = state?.entries[path];
      entries[path] = { kind: 'page', id: pageId, oid: '', rendered };
      if (
        entry?.kind === 'page' &&
        entry.id === pageId &&
        entry.rendered === rendered &&
        repository.get(inRoot(path))?.oid === entry.oid
      ) {
        // Unchanged since the last sync: the repository's file stays as it is.
        keptOids.set(path, entry.oid);
      } else {
        writes.set(inRoot(path), bytes);
      }
      if (++done % 100 === 0) await context.progress(done, total);
    }
    for (const file of files) {
      const path = paths.files.get(file.id)!;
      const entry = state?.entries[path];
      entries[path] = { kind: 'file', id: file.id, oid: '', blob: file.blob };
      if (
        entry?.kind === 'file' &&
        entry.id === file.id &&
        entry.blob === file.blob &&
        repository.get(inRoot(path))?.oid === entry.oid
      ) {
        keptOids.set(path, entry.oid);
      } else {
        // Streamed from the blob store into the repository, never held whole.
        const key = blobKeyOf(file.blob);
        const size = await this.blobs.size(key);
        if (size !== null) {
          writes.set(inRoot(path), {
            size,
            open: async () => {
              const stream = await this.blobs.createReadStream(key);
              if (!stream) throw new GitSyncFailure(`The bytes of ${inRoot(path)} are missing.`);
              return stream;
            },
          });
        }
      }
      if (++done % 100 === 0) await context.progress(done, total);
    }
    const orphans = new Set<string>();
    for (const [pageId, path] of paths.pages) {
      if (previous.get(path)?.orphan && previous.get(path)?.id === pageId) {
        orphans.add(pageId);
        entries[path].orphan = true;
      }
    }
    const summary = renderSummary(summaryPages(pages, orphans), paths);
    const summaryRendered = sha256Hex(summary);
    if (state?.summaryRendered !== summaryRendered || !state) {
      writes.set(inRoot(layout.summary), Buffer.from(summary));
    }
    const redirects = redirectsNow(latest?.redirects ?? [], paths.pages);
    const config = renderConfig(configData, layout, redirects, state !== undefined);
    if (config) writes.set(inDirectory(GITBOOK_YAML), config);
    // The structure of the site showing the space, as the repository's site configuration.
    const siteConfig = await this.siteConfigs.forExport(
      this.dataSource.manager,
      job,
      state?.layout.site ?? latest?.layout.site,
      SiteConfigSync.candidates(job.directory).find((path) => repository.has(path)),
    );
    if (siteConfig) {
      const present = repository.get(siteConfig.path);
      const same =
        present && (await workspace.readBlob(present.oid)).toString('utf8') === siteConfig.text;
      if (!same) writes.set(siteConfig.path, Buffer.from(siteConfig.text));
    }
    const { site: _site, ...syncedLayout } = layout;

    // What the last sync wrote (or, never synced, the layout's files) and is no more.
    const deletes = new Set<string>();
    const written = new Set([...paths.pages.values(), ...paths.files.values()]);
    for (const path of repository.keys()) {
      const relative = relativeTo(path, contentRoot);
      if (relative === undefined || relative === layout.summary) continue;
      if (written.has(relative) || writes.has(path)) continue;
      // Never synced, or forced over the repository's changes: every page file and asset goes.
      const replaced = !state || changedInRepository.length > 0;
      if (replaced ? isLayoutFile(relative) : previous.has(relative)) deletes.add(path);
    }

    const message = job.commitMessage ?? 'Update from Bindery';
    const pushed = await workspace.commitAndPush({
      target,
      parent,
      writes,
      deletes,
      message,
      author: { ...COMMITTER, timestamp: Math.floor(this.clock.now().getTime() / 1000) },
      force: job.force,
    });
    for (const [path, entry] of Object.entries(entries)) {
      entry.oid = keptOids.get(path) ?? pushed.files.get(inRoot(path)) ?? '';
    }
    await context.progress(total, total);

    const git: RevisionGit = {
      oid: pushed.oid,
      message,
      createdByDocs: true,
      url: commitUrl(job, pushed.oid),
      ref: job.ref,
    };
    const gitOf = (path: string) => ({
      oid: pushed.files.get(inRoot(path)) ?? '',
      path: inRoot(path),
    });
    const pageGit: ContentChange[] = [];
    for (const [pageId, path] of paths.pages) {
      const now = gitOf(path);
      const before = pageNodes.get(pageId)?.node.meta.git;
      if (now.oid && (before?.oid !== now.oid || before.path !== now.path)) {
        pageGit.push({ operation: 'update_page', page: pageId, meta: { git: now } });
      }
    }
    // A file object cannot change in place: each is replaced by a copy carrying its blob.
    const replacedFiles = new Map<string, HeldFile>();
    for (const file of files) {
      const now = gitOf(paths.files.get(file.id)!);
      if (now.oid && (file.git?.oid !== now.oid || file.git.path !== now.path)) {
        replacedFiles.set(file.id, { ...file, git: now });
      }
    }
    const changes = async ({ store }: { store: ObjectStore }): Promise<ContentChange[]> => {
      // Files keep their order: every file from the first replaced one on is put back.
      const first = fileObjects.findIndex((file) => replacedFiles.has(file.id));
      const replaced = first < 0 ? [] : fileObjects.slice(first);
      const inserts: ContentChange[] = [];
      for (const file of replaced) {
        inserts.push({
          operation: 'insert_file',
          file: await store.put('file', replacedFiles.get(file.id) ?? file),
        });
      }
      return [
        ...pageGit,
        ...replaced.map((file): ContentChange => ({ operation: 'delete_file', file: file.id })),
        ...inserts,
      ];
    };
    await this.dataSource.transaction(async (manager) => {
      let synced = revisionId;
      if (pushed.committed || pageGit.length > 0 || replacedFiles.size > 0) {
        try {
          const { revision: recorded } = await this.writer.commitOnPrimary(manager, {
            spaceId: job.spaceId,
            expectedRevisionId: revisionId,
            authorId: job.authorId,
            type: 'edits',
            changes,
          });
          await manager.update(Revision, { id: recorded.id }, { git });
          synced = recorded.id;
        } catch (error) {
          // The primary moved (or the space is locked): the exported revision keeps the commit.
          if (!(error instanceof DomainError)) throw error;
          await manager.update(Revision, { id: revisionId }, { git });
        }
      }
      await this.syncs.saveState(
        newSyncState(job, {
          commit: pushed.oid,
          revisionId: synced,
          layout: { ...syncedLayout, ...(siteConfig ? { site: siteConfig.record } : {}) },
          entries,
          redirects,
          summaryRendered,
          syncedAt: this.clock.now(),
        }),
        manager,
      );
    });
    return { applied: true, commit: pushed.oid };
  }

  /** The documents of the tree's document pages, by page id (one query for all). */
  private async loadDocuments(trees: PageTree[]): Promise<Map<string, JSONDocument>> {
    const wanted: { id: string; hash: string }[] = [];
    const collect = (list: PageTree[]) =>
      list.forEach((tree) => {
        if (tree.node.type === 'document' && tree.node.document) {
          wanted.push({ id: tree.node.id, hash: tree.node.document });
        }
        collect(tree.pages);
      });
    collect(trees);
    const store = new BatchedObjectStore(
      this.dataSource.manager,
      (kind, data) => this.engine.put(this.dataSource.manager, kind, data),
      this.objects,
    );
    const loaded = await Promise.all(wanted.map(({ hash }) => store.get(hash)));
    const documents = new Map<string, JSONDocument>();
    for (const [i, { id }] of wanted.entries()) {
      if (loaded[i]) documents.set(id, loaded[i] as JSONDocument);
    }
    return documents;
  }

  /** The space's primary revision, read through the head the spaces module keeps. */
  private async primaryOf(spaceId: string, manager?: EntityManager): Promise<string> {
    const space = await this.heads.spaces.findHead(spaceId, '', manager ?? this.dataSource.manager);
    if (!space || space.deletedAt !== null) throw new Error('The space was deleted.');
    return space.revisionId;
  }
}

/** A file whose bytes Bindery holds. */
type HeldFile = FileObject & { blob: string };

/** A page tree as layoutPageOf takes it. */
function toLike(tree: PageTree): Parameters<typeof layoutPageOf>[0] {
  return { ...tree.node, pages: tree.pages.map(toLike) };
}

/** Files the layout reads as pages and files: markdown files and assets. */
function isLayoutFile(path: string): boolean {
  return /\.md$/i.test(path) || path.startsWith(`${ASSETS_DIR}/`);
}

/**
 * Paths (relative to the content root) of the pages and files the repository changed since the
 * sync `state`: a file edited or deleted, a markdown file or asset added (the summary aside).
 */
function changedSince(
  state: GitSyncState,
  repository: ReadonlyMap<string, { oid: string }>,
  contentRoot: string,
): string[] {
  const changed: string[] = [];
  for (const [path, entry] of Object.entries(state.entries)) {
    if (repository.get(posix.join(contentRoot, path))?.oid !== entry.oid) changed.push(path);
  }
  for (const path of repository.keys()) {
    const relative = relativeTo(path, contentRoot);
    if (
      relative !== undefined &&
      !(relative in state.entries) &&
      relative !== state.layout.summary &&
      isLayoutFile(relative) &&
      (relative.startsWith(`${ASSETS_DIR}/`) ||
        !relative.split('/').some((segment) => segment.startsWith('.')))
    ) {
      changed.push(relative);
    }
  }
  return changed.sort();
}

/** The redirects of the last sync, each to the current file of its page. */
function redirectsNow(
  redirects: readonly SyncedRedirect[],
  pagePaths: ReadonlyMap<string, string>,
): SyncedRedirect[] {
  return redirects.map((redirect) => {
    const path = redirect.pageId ? pagePaths.get(redirect.pageId) : undefined;
    return path ? { ...redirect, target: path } : redirect;
  });
}

/**
 * `.gitbook.yaml` to write, or undefined to keep the repository's: the one there, with its
 * other keys as they are, when its `redirects` differ from `redirects`; GitBook's default one
 * (with the redirects) when the repository has none and was never synced, or has redirects to
 * write.
 */
function renderConfig(
  existing: Buffer | undefined,
  layout: SyncedLayout,
  redirects: readonly SyncedRedirect[],
  synced: boolean,
): Buffer | undefined {
  const wanted = Object.fromEntries(redirects.map(({ source, target }) => [source, target]));
  let parsed: Record<string, unknown> | undefined;
  if (existing) {
    try {
      const value: unknown = load(existing.toString('utf8'), { schema: CORE_SCHEMA, maxDepth: 10 });
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        parsed = value as Record<string, unknown>;
      }
    } catch {
      parsed = undefined;
    }
  }
  if (parsed) {
    const current = readLayoutConfig(existing).redirects;
    const same =
      current.length === redirects.length &&
      current.every(({ source, target }) => wanted[source] === target);
    if (same) return undefined;
    const next = { ...parsed };
    if (redirects.length > 0) next.redirects = wanted;
    else delete next.redirects;
    return Buffer.from(dump(next, { lineWidth: -1 }));
  }
  if (synced && redirects.length === 0) return undefined;
  return Buffer.from(
    dump(
      {
        root: layout.root === '' ? './' : `./${layout.root}/`,
        structure: { readme: layout.readme, summary: layout.summary },
        ...(redirects.length > 0 ? { redirects: wanted } : {}),
      },
      { lineWidth: -1 },
    ),
  );
}
