import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { posix } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { ContentEngine } from '../../content-engine/content-engine';
import { ContentObjectsRepository } from '../../content-engine/content-objects.repository';
import type { JSONDocument } from '../../content-engine/documents/document';
import { documentToMarkdown } from '../../content-engine/documents/markdown';
import { Revision, type RevisionGit } from '../../content-engine/entities/revision.entity';
import { blobKeyOf } from '../../content-engine/files/file-content';
import { keptPath } from '../../content-engine/refs/markdown-paths';
import { BatchedObjectStore } from '../../content-engine/reads/batched-object-store';
import { ContentReader, type PageTree } from '../../content-engine/reads/content-reader';
import { DomainError } from '../../platform/errors/domain-error';
import { ContentHeads } from '../../content-engine/writes/content-heads';
import type { ContentChange } from '../../content-engine/writes/content-writer';
import { ContentWriter } from '../../content-engine/writes/content-writer';
import type { ObjectStore } from '../../content-engine/tree/object-store';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { Clock } from '../../platform/clock/clock';
import { FRONTMATTER_KEYS, type LayoutFile, type LayoutPage } from '../layout/layout';
import { planPaths, renderLayout } from '../layout/layout-writer';
import { RefNotFound } from '../remote/git-repository';
import type { GitOutcome } from './git-importer';
import { commitUrl, type GitOperationContext } from './git-job';
import { refToRelativeUrl } from './ref-rewrite';

/** The author and committer of exported commits. */
const COMMITTER = { name: 'Bindery', email: 'bindery@localhost' };

/**
 * Exports the space's primary revision: renders it in the Git Sync layout, commits it with
 * `commitMessage` on top of the ref's head (or as its first commit), pushes, and records the
 * commit: a revision on top of the exported one whose pages carry their file's blob in `git`
 * and which records the commit (`createdByDocs: true`). When the primary moved meanwhile, the
 * exported revision only gets the commit in `git`. Files get their blob in `git` too.
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
    private readonly clock: Clock,
  ) {}

  async run(context: GitOperationContext): Promise<GitOutcome> {
    const { job, workspace, target } = context;
    const revisionId = await this.primaryOf(job.spaceId);
    const revision = await this.reader.readRevision(job.spaceId, revisionId);
    const [trees, fileObjects] = await Promise.all([
      this.reader.listPages(revision),
      this.reader.listAllFiles(revision),
    ]);
    const pages = trees.flatMap((tree) => toLayoutPage(tree, job.directory));
    const files: LayoutFile[] = [];
    for (const file of fileObjects) {
      const data = file.blob ? await this.blobs.get(blobKeyOf(file.blob)) : null;
      if (data) files.push({ id: file.id, name: file.name, contentType: file.contentType, data });
    }
    const paths = planPaths(pages, files);
    await this.renderBodies(trees, pages, paths);
    const rendered = renderLayout(pages, files, paths);

    let parent: string | null = null;
    try {
      parent = await workspace.fetchHead(target);
    } catch (error) {
      if (!(error instanceof RefNotFound)) throw error;
    }
    const message = job.commitMessage ?? 'Update from Bindery';
    const pushed = await workspace.commitAndPush({
      target,
      parent,
      directory: job.directory,
      files: rendered,
      message,
      author: { ...COMMITTER, timestamp: Math.floor(this.clock.now().getTime() / 1000) },
      force: job.force,
    });
    const git: RevisionGit = {
      oid: pushed.oid,
      message,
      createdByDocs: true,
      url: commitUrl(job, pushed.oid),
      ref: job.ref,
    };
    const pageGit: ContentChange[] = [];
    for (const [pageId, path] of paths.pages) {
      const oid = pushed.blobs.get(path);
      if (oid) {
        pageGit.push({
          operation: 'update_page',
          page: pageId,
          meta: { git: { oid, path: posix.join(job.directory, path) } },
        });
      }
    }
    // A file object cannot change in place: each is replaced by a copy carrying its blob, all
    // removed first and added back in their order.
    const exportedFiles = fileObjects.flatMap((file) => {
      const path = paths.files.get(file.id);
      const oid = path ? pushed.blobs.get(path) : undefined;
      return path && oid ? [{ ...file, git: { oid, path: posix.join(job.directory, path) } }] : [];
    });
    const changes = async ({ store }: { store: ObjectStore }): Promise<ContentChange[]> => {
      const inserts: ContentChange[] = [];
      for (const file of exportedFiles) {
        inserts.push({ operation: 'insert_file', file: await store.put('file', file) });
      }
      return [
        ...pageGit,
        ...exportedFiles.map((file): ContentChange => ({
          operation: 'delete_file',
          file: file.id,
        })),
        ...inserts,
      ];
    };
    await this.dataSource.transaction(async (manager) => {
      try {
        const { revision: recorded } = await this.writer.commitOnPrimary(manager, {
          spaceId: job.spaceId,
          expectedRevisionId: revisionId,
          authorId: job.authorId,
          type: 'edits',
          changes,
        });
        await manager.update(Revision, { id: recorded.id }, { git });
      } catch (error) {
        // The primary moved (or the space is locked): the exported revision keeps the commit.
        if (!(error instanceof DomainError)) throw error;
        await this.recordOnExported(manager, revisionId, git);
      }
    });
    return { applied: true, commit: pushed.oid };
  }

  /** Markdown of every document page, its links to pages and files as relative paths. */
  private async renderBodies(
    trees: PageTree[],
    pages: LayoutPage[],
    paths: ReturnType<typeof planPaths>,
  ): Promise<void> {
    const byId = new Map<string, LayoutPage>();
    const index = (list: LayoutPage[]) =>
      list.forEach((page) => {
        byId.set(page.id, page);
        index(page.pages);
      });
    index(pages);
    const documents: { id: string; hash: string }[] = [];
    const collect = (list: PageTree[]) =>
      list.forEach((tree) => {
        if (tree.node.type === 'document' && tree.node.document) {
          documents.push({ id: tree.node.id, hash: tree.node.document });
        }
        collect(tree.pages);
      });
    collect(trees);
    // One query for every document (the store batches the gets of one tick).
    const store = new BatchedObjectStore(
      this.dataSource.manager,
      (kind, data) => this.engine.put(this.dataSource.manager, kind, data),
      this.objects,
    );
    const loaded = await Promise.all(documents.map(({ hash }) => store.get(hash)));
    for (const [i, { id }] of documents.entries()) {
      const page = byId.get(id);
      const from = paths.pages.get(id);
      const document = loaded[i] as JSONDocument | undefined;
      if (!page || !from || !document) continue;
      page.markdown = await documentToMarkdown(document, {
        refToUrl: (ref) => refToRelativeUrl(ref, from, id, paths),
      });
    }
  }

  private async recordOnExported(manager: EntityManager, revisionId: string, git: RevisionGit) {
    await manager.update(Revision, { id: revisionId }, { git });
  }

  /** The space's primary revision, read through the head the spaces module keeps. */
  private async primaryOf(spaceId: string): Promise<string> {
    const space = await this.heads.spaces.findHead(spaceId, '', this.dataSource.manager);
    if (!space || space.deletedAt !== null) throw new Error('The space was deleted.');
    return space.revisionId;
  }
}

/**
 * A page of the tree as the layout takes it (computed pages are not exported); a hidden page
 * keeps its file in `directory`.
 */
function toLayoutPage(tree: PageTree, directory: string): LayoutPage[] {
  const { node } = tree;
  if (node.type === 'computed') return [];
  const keep = keptPath(node.meta, directory);
  const meta: Record<string, unknown> = {};
  for (const key of FRONTMATTER_KEYS) {
    if (node.meta[key] !== undefined) meta[key] = node.meta[key];
  }
  return [
    {
      id: node.id,
      type: node.type,
      title: typeof node.meta.title === 'string' ? node.meta.title : 'Untitled',
      ...(typeof node.meta.slug === 'string' ? { slug: node.meta.slug } : {}),
      meta,
      ...(node.type === 'link' ? { href: linkHref(node.meta) } : {}),
      ...(keep ? { keep } : {}),
      pages: tree.pages.flatMap((child) => toLayoutPage(child, directory)),
    },
  ];
}

function linkHref(meta: Record<string, unknown>): string {
  if (typeof meta.href === 'string') return meta.href;
  const target = meta.target as { kind?: string; url?: string } | undefined;
  return target?.kind === 'url' && typeof target.url === 'string' ? target.url : '';
}
