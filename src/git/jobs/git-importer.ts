import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { posix } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { ContentEngine } from '../../content-engine/content-engine';
import type { JSONDocument } from '../../content-engine/documents/document';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import { Revision, type RevisionGit } from '../../content-engine/entities/revision.entity';
import { MAX_FILE_BYTES } from '../../content-engine/files/file-content';
import { childRefs, readRoot, type FileNode } from '../../content-engine/tree/format';
import { getRequired, type ObjectStore } from '../../content-engine/tree/object-store';
import { ContentHeads } from '../../content-engine/writes/content-heads';
import {
  ContentWriter,
  storeDocuments,
  type ContentChange,
} from '../../content-engine/writes/content-writer';
import { newId } from '../../platform/ids/ids';
import { readLayout, type ReadLayoutPage } from '../layout/layout-reader';
import type { TreeBlob } from '../remote/git-repository';
import { commitUrl, GitSyncFailure, type GitOperationContext } from './git-job';
import { resolveRelativeRefs } from './ref-rewrite';

export interface GitOutcome {
  /** False when the operation turned out stale and nothing was written. */
  applied: boolean;
  commit?: string;
  /** What was left out though the operation succeeded. */
  warnings?: string[];
}

interface PreparedFile {
  id: string;
  name: string;
  data: Buffer;
  git: { oid: string; path: string };
}

/**
 * Imports a ref of a repository: fetches its head commit, reads the Git Sync layout (or the
 * folder tree) of the project directory, and commits it as a new revision whose content
 * replaces the space's whole content: on the primary, or (`standalone`) beside it. The
 * revision records the commit in `git`; pages and files their blob in `git`.
 */
@Injectable()
export class GitImporter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly heads: ContentHeads,
    private readonly engine: ContentEngine,
    private readonly writer: ContentWriter,
  ) {}

  async run(context: GitOperationContext): Promise<GitOutcome> {
    const { job, workspace, target } = context;
    const head = await workspace.fetchHead(target);
    const prefix = job.directory === '' ? '' : `${job.directory}/`;
    const commit = await workspace.read(head, (path, isFolder) =>
      isFolder
        ? `${path}/`.startsWith(prefix) || prefix.startsWith(`${path}/`)
        : path.startsWith(prefix) && isLayoutFile(path.slice(prefix.length)),
    );
    const tree = new Map<string, TreeBlob>();
    for (const [path, blob] of commit.files) {
      if (path.startsWith(prefix)) tree.set(path.slice(prefix.length), blob);
    }
    if (![...tree.keys()].some((path) => /\.md$/i.test(path))) {
      throw new GitSyncFailure(
        `Nothing to import: ${job.directory ? `${job.directory}/ in ` : ''}${job.ref} has no markdown file.`,
      );
    }
    const layout = readLayout(new Map([...tree].map(([path, blob]) => [path, blob.data])), newId);
    const repoPath = (path: string) =>
      posix.join(job.directory, layout.root, path).replace(/^\.\//, '');
    const blobOf = (path: string) => tree.get(posix.join(layout.root, path))?.oid ?? '';

    const [kept, tooLarge] = partition(layout.files, (file) => file.data.length <= MAX_FILE_BYTES);
    const warnings = tooLarge.map(
      (file) =>
        `Skipped ${repoPath(file.path)}: ${file.data.length} bytes, over the ${MAX_FILE_BYTES}-byte (1 MB) file limit.`,
    );
    if (layout.orphans.length > 0) {
      warnings.push(
        `Imported as hidden pages, not listed in the summary: ${layout.orphans.map(repoPath).join(', ')}.`,
      );
    }
    const files: PreparedFile[] = kept.map((file) => ({
      id: file.id,
      name: file.name,
      data: file.data,
      git: { oid: blobOf(file.path), path: repoPath(file.path) },
    }));
    const pagePaths = new Map<string, string>();
    const visit = (pages: ReadLayoutPage[]) => {
      for (const page of pages) {
        if (page.path) pagePaths.set(page.path, page.id);
        visit(page.pages);
      }
    };
    visit(layout.pages);
    const filePaths = new Map(kept.map((file) => [file.path, file.id]));
    const pageChanges: ContentChange[] = [];
    const addPages = async (pages: ReadLayoutPage[], into: string | null) => {
      for (const page of pages) {
        let document: JSONDocument | null = null;
        if (page.type === 'document' && page.markdown !== undefined && page.path) {
          document = resolveRelativeRefs(
            await markdownToDocument(page.markdown),
            page.path,
            pagePaths,
            filePaths,
          );
        }
        pageChanges.push({
          operation: 'insert_page',
          id: page.id,
          type: page.type,
          meta: {
            title: page.title,
            ...(page.slug ? { slug: page.slug } : {}),
            ...page.meta,
            ...(page.type === 'link'
              ? { target: { kind: 'url', url: page.href ?? '' }, href: page.href ?? '' }
              : {}),
            ...(page.path ? { git: { oid: blobOf(page.path), path: repoPath(page.path) } } : {}),
          },
          document,
          into,
        });
        await addPages(page.pages, page.type === 'link' ? into : page.id);
      }
    };
    await addPages(layout.pages, null);
    const git: RevisionGit = {
      oid: commit.oid,
      message: commit.message.trim(),
      createdByDocs: false,
      url: commitUrl(job, commit.oid),
      ref: job.ref,
    };

    const applied = await this.dataSource.transaction(async (manager) => {
      if (!(await context.stillCurrent(manager))) return false;
      const fileChanges: ContentChange[] = [];
      for (const file of files) {
        fileChanges.push({ operation: 'insert_file', file: await this.storeFile(manager, file) });
      }
      const changes = async (base: { tree: string; store: ObjectStore }) => [
        ...(await clearAll(base.store, base.tree)),
        ...fileChanges,
        ...pageChanges,
      ];
      const revision = job.standalone
        ? await this.commitBeside(manager, job.spaceId, job.authorId, changes)
        : (
            await this.writer.commitOnPrimary(manager, {
              spaceId: job.spaceId,
              expectedRevisionId: await this.primaryOf(manager, job.spaceId),
              authorId: job.authorId,
              type: 'edits',
              changes,
            })
          ).revision;
      await manager.update(Revision, { id: revision.id }, { git });
      return true;
    });
    return { applied, commit: commit.oid, warnings };
  }

  /** Stores a file's bytes and its `file` object, with the blob it came from in `git`. */
  private async storeFile(manager: EntityManager, file: PreparedFile): Promise<string> {
    const stored = await this.writer.storeFile(manager, {
      id: file.id,
      name: file.name,
      data: file.data,
    });
    const node: FileNode = { ...stored.file, git: file.git };
    return this.engine.objectStore(manager).put('file', node);
  }

  /** `standalone`: a revision on top of the primary that the space does not move to. */
  private async commitBeside(
    manager: EntityManager,
    spaceId: string,
    authorId: string,
    changes: (base: { tree: string; store: ObjectStore }) => Promise<ContentChange[]>,
  ): Promise<Revision> {
    const parent = await manager.findOneByOrFail(Revision, {
      id: await this.primaryOf(manager, spaceId),
    });
    const store = this.engine.objectStore(manager);
    const resolved = await storeDocuments(store, await changes({ tree: parent.tree, store }));
    return this.engine.commitRevision(manager, { spaceId, parent, changes: resolved, authorId });
  }

  /** The space's primary revision, read through the head the spaces module keeps. */
  private async primaryOf(manager: EntityManager, spaceId: string): Promise<string> {
    const space = await this.heads.spaces.findHead(spaceId, '', manager);
    if (!space || space.deletedAt !== null) throw new Error('The space was deleted.');
    return space.revisionId;
  }

  /** `repoCommitURL` + the commit, or the repository's URL. */
}

/** Files the layout reads: markdown, `.gitbook.yaml`, and assets (other files are not read). */
function isLayoutFile(path: string): boolean {
  return (
    /\.md$/i.test(path) || /(^|\/)\.gitbook\.yaml$/.test(path) || path.includes('.gitbook/assets/')
  );
}

/** Changes that empty a tree: its top-level pages (with their subpages) and its files. */
async function clearAll(store: ObjectStore, tree: string): Promise<ContentChange[]> {
  const root = await readRoot(store, tree);
  const changes: ContentChange[] = [];
  for (const ref of await childRefs(store, root.pages)) {
    changes.push({ operation: 'delete_page', page: ref.id });
  }
  for (const hash of root.files) {
    const file = await getRequired<FileNode>(store, hash);
    changes.push({ operation: 'delete_file', file: file.id });
  }
  return changes;
}

/** The items that pass `test`, then the others. */
function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const passed: T[] = [];
  const failed: T[] = [];
  for (const item of items) (test(item) ? passed : failed).push(item);
  return [passed, failed];
}
