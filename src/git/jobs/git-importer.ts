import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { posix } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { ChangeRequestsService } from '../../change-requests/change-requests.service';
import { ContentEngine } from '../../content-engine/content-engine';
import { ContentObjectsRepository } from '../../content-engine/content-objects.repository';
import type { JSONDocument } from '../../content-engine/documents/document';
import { ContentDiff } from '../../content-engine/diff/content-diff';
import { keepBlockKeys } from '../../content-engine/documents/keep-block-keys';
import { documentToMarkdown } from '../../content-engine/documents/markdown';
import { Revision, type RevisionGit } from '../../content-engine/entities/revision.entity';
import { mergeTrees } from '../../content-engine/merge/merge-trees';
import { BatchedObjectStore } from '../../content-engine/reads/batched-object-store';
import type { MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import { RevisionsRepository } from '../../content-engine/revisions.repository';
import type { FileNode, PageMeta } from '../../content-engine/tree/format';
import {
  CachedObjectStore,
  getRequired,
  type ObjectStore,
} from '../../content-engine/tree/object-store';
import {
  assignSlugs,
  readTreeBase,
  writeTree,
  type TreeBase,
  type TreePage,
} from '../../content-engine/tree/write-tree';
import { ContentHeads } from '../../content-engine/writes/content-heads';
import { ContentWriter } from '../../content-engine/writes/content-writer';
import { AppConfig } from '../../platform/config/app-config';
import { raiseLimitsForJob } from '../../platform/database/job-limits';
import { Clock } from '../../platform/clock/clock';
import { newId, sha256Hex } from '../../platform/ids/ids';
import { SpaceRedirects } from '../../spaces/content/space-redirects';
import type {
  GitSyncState,
  SyncedEntry,
  SyncedRedirect,
  SyncedSiteConfig,
} from '../entities/git-sync-state.entity';
import { GitSyncsRepository } from '../git-syncs.repository';
import { FRONTMATTER_KEYS, GITBOOK_YAML } from '../layout/layout';
import {
  readLayout,
  readLayoutConfig,
  type ReadLayoutFile,
  type ReadLayoutPage,
} from '../layout/layout-reader';
import { renderSummary } from '../layout/layout-writer';
import type { FetchedCommit, TreeBlob } from '../remote/git-repository';
import { inSlices, Turns } from '../remote/turns';
import { assignPageIdentities, fileIdentities } from '../sync/identity';
import { importedLinkMeta, layoutPageOf, renderPageFile, summaryPages } from '../sync/page-files';
import { SiteConfigSync } from '../sync/site-config-sync';
import { newSyncState, previousEntries, repositoryKey } from '../sync/sync-state';
import { commitUrl, GitSyncFailure, type GitOperationContext, type GitOutcome } from './git-job';
import { countLayoutPages, importedDocument } from './imported-pages';

/** Page metadata the repository holds: an import replaces these and keeps the others. */
const GIT_META_KEYS = new Set<string>([
  'title',
  'slug',
  'git',
  'target',
  'href',
  ...FRONTMATTER_KEYS,
]);

/** A page with a file: what its SyncedEntry needs. */
interface PageRender {
  node: TreePage;
  path: string;
  oid: string;
  /** The new document; undefined: the node's (kept as it was). */
  document: JSONDocument | undefined;
  /** The entry of the last sync, when the file did not change. */
  reuse: SyncedEntry | undefined;
}

/** A page of the new tree whose document is still to be stored. */
interface PendingDocument {
  page: TreePage;
  document: JSONDocument;
}

/**
 * Imports a ref of a repository as the space's content: reads the Git Sync layout (or the
 * folder tree) of the project directory and makes it the content of the space, keeping what
 * it can of what the space has (src/git/sync):
 *
 * - pages and files keep their ids: by path from the last sync, then moved or renamed (same
 *   blob, or similar content), and only new files get new ids;
 * - a file whose blob did not change keeps its page's document as it is (not read again);
 * - the tree is written over the base (writeTree), so an unchanged commit makes no revision and
 *   a one-line edit one revision that differs on that page's path only;
 * - when the space changed since the last sync too, the import is merged three-way (base: the
 *   revision of the last sync); conflicts leave the import in a change request instead.
 *
 * `standalone` makes a revision beside the primary (the space does not move to it).
 */
@Injectable()
export class GitImporter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly heads: ContentHeads,
    private readonly engine: ContentEngine,
    private readonly objects: ContentObjectsRepository,
    private readonly revisions: RevisionsRepository,
    private readonly writer: ContentWriter,
    private readonly syncs: GitSyncsRepository,
    private readonly changeRequests: ChangeRequestsService,
    private readonly spaceRedirects: SpaceRedirects,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly siteConfigs: SiteConfigSync,
    private readonly diff: ContentDiff,
  ) {}

  async run(context: GitOperationContext): Promise<GitOutcome> {
    const { job, workspace, target } = context;
    const head = await workspace.fetchHead(target);
    const state = await this.syncs.findState(job.spaceId, repositoryKey(job));
    if (state && !job.standalone) {
      // The repository did not move since the last sync (or since the import that conflicted
      // and waits in a change request): nothing to bring in.
      if (state.commit === head) return { applied: true, commit: head };
      if (state.conflict?.commit === head) {
        const waiting = await this.waitingChangeRequest(job, state);
        return { applied: true, commit: head, ...(waiting ? { changeRequest: waiting } : {}) };
      }
    }

    const prefix = job.directory === '' ? '' : `${job.directory}/`;
    // Only markdown and .gitbook.yaml are read here: the files a page refers to are streamed to
    // the blob store one by one, below.
    // The site configuration (gitbook-docs.yaml) may sit at the directory or above it.
    const siteConfigPaths = SiteConfigSync.candidates(job.directory);
    const commit = await workspace.read(
      head,
      (path, isFolder) =>
        isFolder
          ? `${path}/`.startsWith(prefix) || prefix.startsWith(`${path}/`)
          : (path.startsWith(prefix) && isLayoutFile(path.slice(prefix.length))) ||
            siteConfigPaths.includes(path),
      (path) => isReadFile(path) || siteConfigPaths.includes(path),
    );
    const siteConfigPath = siteConfigPaths.find((path) => commit.files.get(path)?.data);
    const tree = new Map<string, TreeBlob>();
    for (const [path, blob] of commit.files) {
      if (path.startsWith(prefix)) tree.set(path.slice(prefix.length), blob);
    }
    if (![...tree.keys()].some((path) => /\.md$/i.test(path))) {
      throw new GitSyncFailure(
        `Nothing to import: ${job.directory ? `${job.directory}/ in ` : ''}${job.ref} has no markdown file.`,
      );
    }
    const config = readLayoutConfig(tree.get(GITBOOK_YAML)?.data);
    const rootPrefix = config.root === '' ? '' : `${config.root}/`;
    const oids = new Map<string, string>();
    for (const [path, blob] of tree) {
      if (path.startsWith(rootPrefix)) oids.set(path.slice(rootPrefix.length), blob.oid);
    }
    const repoPath = (path: string) => posix.join(job.directory, config.root, path);

    const read = this.readStore();
    const primary = await this.primaryOf(this.dataSource.manager, job.spaceId);
    // The base: the revision of the last sync (when it still exists), else the primary.
    const syncedTree =
      !job.standalone && state
        ? await this.revisions.findTree(state.revisionId, job.spaceId)
        : undefined;
    const baseRevision = syncedTree !== undefined ? state!.revisionId : primary;
    const baseTree = syncedTree ?? (await this.revisions.findTree(primary, job.spaceId))!;
    const base = await readTreeBase(read, baseTree);
    // Every file object at once: the batching store reads them in one query.
    const fileNodes = await Promise.all(
      base.root.files.map((hash) => getRequired<FileNode>(read, hash)),
    );
    const baseFiles = new Map(
      fileNodes.map((node, i) => [node.id, { hash: base.root.files[i], node }]),
    );
    const previous = previousEntries(state, config.root, {
      directory: job.directory,
      pages: base.nodes,
      files: baseFiles,
    });

    // Every file may be one of the space's: an asset, or a file a page refers to.
    const assets = [...oids.keys()].filter((path) => !isReadFile(path));
    const fileIds = fileIdentities(assets, oids, previous);
    // Thousands of pages are read, parsed, rendered and stored in turns: requests are answered
    // meanwhile (the process serves them too).
    const turns = new Turns();
    const layout = await readLayout(
      new Map([...tree].map(([path, blob]) => [path, blob.data ?? NOT_READ])),
      newId,
      (path) => fileIds.get(path),
      inSlices(),
    );
    await assignPageIdentities(layout.pages, {
      oids,
      previous,
      base: base.nodes,
      textOf: (pageId) => this.textOf(read, base, pageId),
    });

    const maxBytes = this.config.GIT_MAX_FILE_BYTES;
    const sizes = new Map<string, number>();
    for (const file of layout.files) {
      sizes.set(file.path, await workspace.blobSize(oids.get(file.path)!));
    }
    const [kept, tooLarge] = partition(layout.files, (file) => sizes.get(file.path)! <= maxBytes);
    const warnings = tooLarge.map(
      (file) =>
        `Skipped ${repoPath(file.path)}: ${sizes.get(file.path)} bytes, over the ${maxBytes}-byte file limit (GIT_MAX_FILE_BYTES).`,
    );
    if (layout.orphans.length > 0) {
      warnings.push(
        `Imported as hidden pages, not listed in the summary: ${layout.orphans.map(repoPath).join(', ')}.`,
      );
    }

    // Where each page and file is (relative to the root): links resolve and render through it.
    const pageAt = new Map<string, string>();
    const paths: MarkdownPaths = { pages: new Map(), files: new Map() };
    const index = (pages: ReadLayoutPage[]) =>
      pages.forEach((page) => {
        if (page.path) {
          pageAt.set(page.path, page.id);
          paths.pages.set(page.id, page.path);
        }
        index(page.pages);
      });
    index(layout.pages);
    const fileAt = new Map(kept.map((file) => [file.path, file.id]));
    for (const file of kept) paths.files.set(file.id, file.path);

    const total = countLayoutPages(layout.pages) + kept.length;
    let done = 0;
    const step = async () => {
      done++;
      if (done % 100 === 0) await context.progress(done, total);
      await turns.maybe();
    };
    await context.progress(0, total);

    const entries: Record<string, SyncedEntry> = {};
    const pending: PendingDocument[] = [];
    const renders: PageRender[] = [];
    const toTree = async (page: ReadLayoutPage): Promise<TreePage> => {
      const baseNode = base.nodes.get(page.id)?.node;
      const entry = page.path ? previous.get(page.path) : undefined;
      const oid = page.path ? oids.get(page.path) : undefined;
      const unchanged =
        entry?.kind === 'page' &&
        entry.id === page.id &&
        entry.oid === oid &&
        baseNode?.type === 'document' &&
        baseNode.meta.title === page.title;
      const meta: PageMeta = {};
      if (baseNode?.type === page.type) {
        for (const [key, value] of Object.entries(baseNode.meta)) {
          if (!GIT_META_KEYS.has(key)) meta[key] = value;
        }
      }
      Object.assign(meta, {
        title: page.title,
        ...(page.slug ? { slug: page.slug } : {}),
        ...page.meta,
        ...(page.type === 'link' ? importedLinkMeta(page, pageAt) : {}),
        ...(page.path && oid ? { git: { oid, path: repoPath(page.path) } } : {}),
      });
      const node: TreePage = {
        id: page.id,
        type: page.type,
        meta,
        document: unchanged ? baseNode.document : null,
        pages: [],
      };
      let document: JSONDocument | undefined;
      if (!unchanged && page.type === 'document' && page.markdown !== undefined && page.path) {
        try {
          document = await importedDocument(page.markdown, page.path, pageAt, fileAt);
        } catch (error) {
          throw new GitSyncFailure(
            `Could not import ${repoPath(page.path)}: ${describeError(error)}`,
          );
        }
        if (baseNode?.document) {
          const before = await getRequired<JSONDocument>(read, baseNode.document);
          document = keepBlockKeys(before, document);
        }
        pending.push({ page: node, document });
      }
      if (page.path && oid) {
        renders.push({
          node,
          path: page.path,
          oid,
          document,
          reuse: unchanged ? entry : undefined,
        });
      }
      await step();
      if (page.type !== 'link') node.pages = await toTrees(page.pages);
      return node;
    };
    /** Pages of a list; the subpages of a link (an URL in the summary) follow it. */
    const toTrees = async (list: ReadLayoutPage[]): Promise<TreePage[]> => {
      const nodes: TreePage[] = [];
      for (const page of list) {
        nodes.push(await toTree(page));
        if (page.type === 'link') nodes.push(...(await toTrees(page.pages)));
      }
      return nodes;
    };
    const pages = await toTrees(layout.pages);
    // Each page's file as an export would write it (slugs as the tree will have them).
    const orphanPaths = new Set(layout.orphans);
    assignSlugs(pages);
    for (const { node, path, oid, document, reuse } of renders) {
      await turns.maybe();
      let rendered = reuse?.rendered;
      if (rendered === undefined) {
        const body =
          document ??
          (node.document ? await getRequired<JSONDocument>(read, node.document) : undefined);
        const [layoutPage] = layoutPageOf(node, job.directory);
        rendered = sha256Hex(await renderPageFile(layoutPage, body, path, paths));
      }
      entries[path] = {
        kind: 'page',
        id: node.id,
        oid,
        rendered,
        ...(orphanPaths.has(path) ? { orphan: true } : {}),
      };
    }
    const summaryRendered = sha256Hex(
      renderSummary(
        summaryPages(
          pages.flatMap((page) => layoutPageOf(page, job.directory)),
          new Set(layout.orphans.flatMap((path) => pageAt.get(path) ?? [])),
        ),
        paths,
      ),
    );
    const redirects: SyncedRedirect[] = layout.redirects.map(({ source, target: file }) => {
      const pageId = pageAt.get(file) ?? pageAt.get(posix.join(file, 'README.md'));
      return pageId ? { source, target: file, pageId } : { source, target: file };
    });

    const git: RevisionGit = {
      oid: commit.oid,
      message: commit.message.trim(),
      createdByDocs: false,
      url: commitUrl(job, commit.oid),
      ref: job.ref,
    };
    // The content is stored before the transaction, its progress reported as it goes: content
    // objects and blobs are addressed by what they hold, so storing them takes no lock and
    // needs no transaction, and what a stale or failed import stored is collected as
    // unreferenced. The transaction that follows only checks that the import is still current
    // and moves the space (or opens a change request): short, and it never waits on another
    // connection (progress is written on one, and the sync's row is locked by the transaction).
    const outside = this.storeIn(this.dataSource.manager, 5000);
    for (const { page, document } of pending) {
      page.document = await outside.put('document', document);
      await turns.maybe();
    }
    const fileHashes: string[] = [];
    for (const file of kept) {
      const oid = oids.get(file.path) ?? '';
      const known = baseFiles.get(file.id);
      const stored =
        known && known.node.git?.oid === oid && known.node.name === file.name && known.node.blob
          ? { hash: known.hash, blob: known.node.blob }
          : await this.storeFile(workspace, file, { oid, path: repoPath(file.path) });
      fileHashes.push(stored.hash);
      entries[file.path] = { kind: 'file', id: file.id, oid, blob: stored.blob };
      await step();
    }
    const imported = await writeTree(inTurns(outside, turns), base, pages, fileHashes);
    // The search index of so many pages follows the import in steps of its own, after its
    // transaction, which stays short (on the embedded database it holds every request).
    const bulk = pending.length > BULK_PAGES;
    // What the import changes, for the event its transaction records: diffed here, outside it.
    if (imported !== baseTree) await this.diff.prepareChanges(read, baseTree, imported);

    const outcome = await this.dataSource.transaction(async (manager) => {
      await raiseLimitsForJob(manager);
      if (!(await context.stillCurrent(manager))) return { applied: false } as GitOutcome;
      const store = this.storeIn(manager, 5000);

      if (job.standalone) {
        if (imported !== baseTree) {
          const revision = await this.engine.revisionWithTree(manager, {
            spaceId: job.spaceId,
            parent: primary,
            tree: imported,
            authorId: job.authorId,
          });
          await manager.update(Revision, { id: revision.id }, { git });
        }
        return { applied: true, commit: commit.oid, warnings } as GitOutcome;
      }

      const current = await this.primaryOf(manager, job.spaceId);
      let synced = baseRevision;
      let changeRequest: GitOutcome['changeRequest'];
      let theirsRevision: string | undefined;
      if (current === baseRevision) {
        if (imported !== baseTree) {
          const { revision } = await this.writer.commitOnPrimary(manager, {
            spaceId: job.spaceId,
            expectedRevisionId: current,
            authorId: job.authorId,
            type: 'edits',
            changes: () => Promise.resolve({ tree: imported }),
            bulk,
          });
          await manager.update(Revision, { id: revision.id }, { git });
          synced = revision.id;
        }
      } else if (imported !== baseTree) {
        const merged = await this.mergeImport(manager, store, {
          job,
          git,
          baseRevision,
          baseTree,
          current,
          imported,
          commit: commit.oid,
          bulk,
        });
        theirsRevision = merged.theirs;
        if (merged.changeRequest) {
          changeRequest = merged.changeRequest;
          warnings.push(merged.warning!);
        } else {
          synced = merged.theirs;
        }
      }
      if (changeRequest) {
        // The last sync stays what it was; the next import of this commit finds the change request.
        await this.syncs.saveState(
          {
            ...state!,
            conflict: {
              commit: commit.oid,
              ...changeRequest,
              pending: {
                revisionId: theirsRevision!,
                layout: { root: config.root, readme: layout.readme, summary: layout.summary },
                entries,
                redirects,
                summaryRendered,
              },
            },
          },
          manager,
        );
      } else {
        // The redirects are the space's: those of its latest sync, with any repository, go.
        const latest = await this.syncs.findLatestState(job.spaceId, manager);
        const site = siteConfigPath
          ? await this.applySiteConfig(manager, job, state, siteConfigPath, commit, warnings)
          : undefined;
        await this.syncs.saveState(
          newSyncState(job, {
            commit: commit.oid,
            revisionId: synced,
            layout: {
              root: config.root,
              readme: layout.readme,
              summary: layout.summary,
              ...(site ? { site } : {}),
            },
            entries,
            redirects,
            summaryRendered,
            syncedAt: this.clock.now(),
          }),
          manager,
        );
        await this.applyRedirects(
          manager,
          job.spaceId,
          redirects,
          latest?.redirects ?? [],
          warnings,
        );
      }
      return { applied: true, commit: commit.oid, warnings, changeRequest } as GitOutcome;
    });
    await context.progress(total, total);
    return outcome;
  }

  /**
   * An import when the space changed since the last sync too: the import, as a revision on the
   * last sync's (`theirs`), merged three-way into the primary; when it conflicts, proposed in a
   * change request instead, the primary left as it is.
   */
  private async mergeImport(
    manager: EntityManager,
    store: ObjectStore,
    input: {
      job: GitOperationContext['job'];
      git: RevisionGit;
      baseRevision: string;
      baseTree: string;
      current: string;
      imported: string;
      commit: string;
      bulk: boolean;
    },
  ): Promise<{ theirs: string; changeRequest?: { id: string; number: number }; warning?: string }> {
    const { job, git } = input;
    const theirs = await this.engine.revisionWithTree(manager, {
      spaceId: job.spaceId,
      parent: input.baseRevision,
      tree: input.imported,
      authorId: job.authorId,
    });
    await manager.update(Revision, { id: theirs.id }, { git });
    const ours = (await this.revisions.findTree(input.current, job.spaceId, manager))!;
    const merged = await mergeTrees({ store, base: input.baseTree, ours, theirs: input.imported });
    if (merged.result === 'merge') {
      const { revision } = await this.writer.commitOnPrimary(manager, {
        spaceId: job.spaceId,
        expectedRevisionId: input.current,
        authorId: job.authorId,
        type: 'merge',
        mergedParent: theirs.id,
        changes: () => Promise.resolve({ tree: merged.tree }),
        bulk: input.bulk,
      });
      await manager.update(Revision, { id: revision.id }, { git });
      return { theirs: theirs.id };
    }
    const { changeRequest: opened } = await this.changeRequests.openWithRevision(
      manager,
      job.spaceId,
      job.authorId,
      {
        subject: `Import ${input.commit.slice(0, 7)} from ${job.ref}`,
        revisionInitial: input.baseRevision,
        revision: theirs.id,
      },
    );
    const count = merged.conflicts.length;
    return {
      theirs: theirs.id,
      changeRequest: { id: opened.id, number: opened.number },
      warning:
        `The space and the repository both changed since the last sync and conflict on ` +
        `${count} ${count === 1 ? 'point' : 'points'}: ` +
        `the import is in change request #${opened.number}, to resolve and merge.`,
    };
  }

  /**
   * The change request holding the import of `state.conflict` while it is open. Once it is
   * merged (or archived, the space's side kept), the import's sync becomes the last one.
   */
  private async waitingChangeRequest(
    job: GitOperationContext['job'],
    state: GitSyncState,
  ): Promise<{ id: string; number: number } | undefined> {
    const conflict = state.conflict!;
    return this.dataSource.transaction(async (manager) => {
      const { changeRequest } = await this.changeRequests.load(manager, job.spaceId, conflict.id);
      if (changeRequest.status === 'open' || changeRequest.status === 'draft') {
        return { id: conflict.id, number: conflict.number };
      }
      await this.syncs.saveState(
        newSyncState(job, {
          commit: conflict.commit,
          ...conflict.pending,
          syncedAt: this.clock.now(),
        }),
        manager,
      );
      return undefined;
    });
  }

  /**
   * The repository's site configuration at `path` made the structure of the site showing the
   * space (see SiteConfigSync), in a savepoint: a failure is reported, and the import stands.
   */
  private async applySiteConfig(
    manager: EntityManager,
    job: GitOperationContext['job'],
    state: GitSyncState | undefined,
    path: string,
    commit: FetchedCommit,
    warnings: string[],
  ): Promise<SyncedSiteConfig | undefined> {
    const file = { path, text: commit.files.get(path)!.data!.toString('utf8') };
    try {
      return await manager.transaction((savepoint) =>
        this.siteConfigs.applyOnImport(savepoint, job, file, state?.layout.site, warnings),
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      warnings.push(`${path} could not be applied to the site: ${message}.`);
      return undefined;
    }
  }

  /**
   * The redirects of `.gitbook.yaml` on the published sites showing the space (those whose file
   * is a page; the others are reported), in a savepoint: a failure is reported, and the import
   * stands.
   */
  private async applyRedirects(
    manager: EntityManager,
    spaceId: string,
    redirects: readonly SyncedRedirect[],
    previous: readonly SyncedRedirect[],
    warnings: string[],
  ): Promise<void> {
    const unresolved = redirects.filter((redirect) => !redirect.pageId);
    if (unresolved.length > 0) {
      warnings.push(
        `Redirects to files that are no page, kept for the next export but not applied: ${unresolved
          .map(({ source, target }) => `${source} → ${target}`)
          .join(', ')}.`,
      );
    }
    try {
      await manager.transaction((savepoint) =>
        this.spaceRedirects.apply({
          manager: savepoint,
          spaceId,
          redirects: redirects.flatMap(({ source, pageId }) =>
            pageId ? [{ source, pageId }] : [],
          ),
          previous: previous.map(({ source }) => source),
        }),
      );
    } catch (error) {
      warnings.push(
        `The redirects could not be applied to the sites: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
  }

  /**
   * Streams a file's blob to the blob store and stores its `file` object, with the blob it came
   * from in `git`; a failure names the file.
   */
  private async storeFile(
    workspace: GitOperationContext['workspace'],
    file: ReadLayoutFile,
    git: { oid: string; path: string },
  ): Promise<{ hash: string; blob: string }> {
    const manager = this.dataSource.manager;
    try {
      const stored = await this.writer.storeFileStream(manager, {
        id: file.id,
        name: file.name,
        size: await workspace.blobSize(git.oid),
        maxBytes: this.config.GIT_MAX_FILE_BYTES,
        open: async () => (await workspace.openBlob(git.oid)).content,
      });
      const node: FileNode = { ...stored.file, git };
      return { hash: await this.engine.objectStore(manager).put('file', node), blob: node.blob! };
    } catch (error) {
      throw new GitSyncFailure(`Could not import ${git.path}: ${describeError(error)}`);
    }
  }

  /** A base page's body as markdown, to compare with a moved file's. */
  private async textOf(store: ObjectStore, base: TreeBase, pageId: string): Promise<string> {
    const hash = base.nodes.get(pageId)?.node.document;
    if (!hash) return '';
    return documentToMarkdown(await getRequired<JSONDocument>(store, hash));
  }

  /** Reads outside the transaction: the reads of one tick in one query, cached by hash. */
  private readStore(): ObjectStore {
    return this.storeIn(this.dataSource.manager, 20_000);
  }

  /** Content objects through `manager`: the reads of one tick in one query, cached by hash. */
  private storeIn(manager: EntityManager, maxEntries: number): ObjectStore {
    const batched = new BatchedObjectStore(
      manager,
      (kind, data) => this.engine.put(manager, kind, data),
      this.objects,
    );
    return new CachedObjectStore(batched, { maxEntries });
  }

  /** The space's primary revision, read through the head the spaces module keeps. */
  private async primaryOf(manager: EntityManager, spaceId: string): Promise<string> {
    const space = await this.heads.spaces.findHead(spaceId, '', manager);
    if (!space || space.deletedAt !== null) throw new Error('The space was deleted.');
    return space.revisionId;
  }
}

/** Pages with new documents past which an import's search index follows it (PrimaryMoved.bulk). */
const BULK_PAGES = 100;

/** `store`, giving the event loop its turns between reads and writes (see Turns). */
function inTurns(store: ObjectStore, turns: Turns): ObjectStore {
  return {
    get: async (hash) => {
      await turns.maybe();
      return store.get(hash);
    },
    put: async (kind, data) => {
      await turns.maybe();
      return store.put(kind, data);
    },
  };
}

/** What the layout is given for a file it does not read (an asset, streamed on its own). */
const NOT_READ = Buffer.alloc(0);

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Files the layout looks at: markdown, `.gitbook.yaml`, assets, and any file outside hidden
 * folders (a page may refer to it).
 */
function isLayoutFile(path: string): boolean {
  return (
    isReadFile(path) ||
    path.includes('.gitbook/assets/') ||
    !path.split('/').some((segment) => segment.startsWith('.'))
  );
}

/** Files read whole when the commit is read: markdown and `.gitbook.yaml`. */
function isReadFile(path: string): boolean {
  return /\.md$/i.test(path) || /(^|\/)\.gitbook\.yaml$/.test(path);
}

/** The items that pass `test`, then the others. */
function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const passed: T[] = [];
  const failed: T[] = [];
  for (const item of items) (test(item) ? passed : failed).push(item);
  return [passed, failed];
}
