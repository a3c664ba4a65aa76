import { Injectable } from '@nestjs/common';
import type { PageDiff } from '../../content-engine/diff/content-diff';
import type { ChangeAttributes } from '../../content-engine/diff/change-attributes';
import type { ChangedPage, TreeChange } from '../../content-engine/diff/tree-changes';
import type { FileObject } from '../../content-engine/reads/content-reader';
import type { ReusableContentNode } from '../../content-engine/tree/format';
import {
  ContentPresenter,
  DEFAULT_PAGE_LAYOUT,
  type ContentView,
} from '../../spaces/content/content.presenter';
import type { PresentedChangeRequest } from '../../spaces/content/merged-change-requests';
import type { PageDiffResponse } from './dto/page-diff.response';
import type {
  ChangedRevisionFileResponse,
  ChangedRevisionPageResponse,
  ChangedRevisionReusableContentResponse,
  RevisionSemanticChangeResponse,
  RevisionSemanticChangesResponse,
} from './dto/semantic-changes.response';
import type { RevisionPair } from './revision-changes.service';

/** GitBook's `RevisionSemanticChanges`, and Bindery's page diff. */
@Injectable()
export class RevisionChangesPresenter {
  constructor(private readonly content: ContentPresenter) {}

  /** The first `limit` changes; `more` counts the others. */
  changes(
    changes: TreeChange[],
    limit: number,
    view: ContentView,
    mergedFrom?: PresentedChangeRequest,
  ): RevisionSemanticChangesResponse {
    return {
      ...(mergedFrom ? { mergedFrom } : {}),
      changes: changes.slice(0, limit).map((change) => this.change(change, view)),
      more: Math.max(0, changes.length - limit),
    };
  }

  /** `views`: where URLs of each side point (the earlier revision's, the later one's). */
  pageDiff(
    pageId: string,
    pair: RevisionPair,
    diff: PageDiff,
    views: { before: ContentView; after: ContentView },
  ): PageDiffResponse {
    const side = (version: PageDiff['before'], view: ContentView) =>
      version ? this.content.page(version.page, view) : undefined;
    const [before, after] = [side(diff.before, views.before), side(diff.after, views.after)];
    return {
      object: 'page-diff',
      page: pageId,
      revisions: {
        ...(pair.from ? { before: pair.from.revision.id } : {}),
        after: pair.to.revision.id,
      },
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
      attributes: presentedPageAttributes(diff.attributes),
      blocks: diff.blocks,
      stats: diff.stats,
    };
  }

  private change(change: TreeChange, view: ContentView): RevisionSemanticChangeResponse {
    switch (change.type) {
      case 'page_created':
      case 'page_deleted':
        return { type: change.type, page: changedPage(change.page) };
      case 'page_edited':
        return {
          type: change.type,
          page: changedPage(change.page),
          attributes: presentedPageAttributes(change.attributes),
        };
      case 'page_moved': {
        const { before, after } = change.parent;
        return {
          type: change.type,
          page: changedPage(change.page),
          parent: {
            ...(before ? { before: changedPage(before) } : {}),
            ...(after ? { after: changedPage(after) } : {}),
          },
        };
      }
      case 'file_created':
      case 'file_deleted':
        return { type: change.type, file: this.file(change.file, view) };
      case 'file_edited':
        return {
          type: change.type,
          file: this.file(change.file, view),
          attributes: this.fileAttributes(change, view),
        };
      case 'reusable_content_created':
      case 'reusable_content_deleted':
        return { type: change.type, reusableContent: reusableContent(change.reusableContent) };
      case 'reusable_content_edited':
        return {
          type: change.type,
          reusableContent: reusableContent(change.reusableContent),
          attributes: change.attributes,
        };
      case 'variables_edited':
        return { type: change.type, variables: change.variables };
    }
  }

  private file(file: FileObject, view: ContentView): ChangedRevisionFileResponse {
    const { id, name, contentType, downloadURL } = this.content.file(file, view);
    return { id, name, contentType, downloadURL };
  }

  /** New bytes (`blob`) are a new `downloadURL`. */
  private fileAttributes(
    change: Extract<TreeChange, { type: 'file_edited' }>,
    view: ContentView,
  ): ChangeAttributes {
    const { blob, ...attributes } = change.attributes;
    if (!blob) return attributes;
    return {
      ...attributes,
      downloadURL: {
        before: this.file(change.before, view).downloadURL,
        after: this.file(change.file, view).downloadURL,
      },
    };
  }
}

function changedPage(page: ChangedPage): ChangedRevisionPageResponse {
  const title = page.meta.title;
  return {
    id: page.id,
    type: page.type,
    title: typeof title === 'string' && title !== '' ? title : 'Untitled',
    ...(page.path !== null ? { path: page.path } : {}),
  };
}

/** A page's layout and cover as page reads show them (GitBook's defaults filled in). */
function presentedPageAttributes(attributes: ChangeAttributes): ChangeAttributes {
  const shown = { ...attributes };
  const eachSide = (name: string, present: (value: object) => object) => {
    const attribute = shown[name];
    if (!attribute) return;
    shown[name] = Object.fromEntries(
      Object.entries(attribute).map(([side, value]) => [side, present(value as object)]),
    );
  };
  eachSide('layout', (layout) => ({ ...DEFAULT_PAGE_LAYOUT, ...layout }));
  eachSide('cover', (cover) => ({ yPos: 0, ...cover }));
  return shown;
}

function reusableContent(node: ReusableContentNode): ChangedRevisionReusableContentResponse {
  return {
    id: node.id,
    title: node.title,
    ...(typeof node.document === 'string' ? { document: node.document } : {}),
  };
}
