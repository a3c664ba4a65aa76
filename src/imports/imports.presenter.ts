import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../platform/urls/url-builder';
import type { ImportRunResponse } from './dto/import-run.response';
import type { ImportRunView } from './imports.service';

/** What a run that stopped reporting is answered with. */
export const STALE_REASON =
  'The import stopped reporting (its process ended before it finished): start it again.';

@Injectable()
export class ImportsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /**
   * GitBook's `ContentImportRun`. A pending or running run last written before `staleBefore`
   * is answered `failed`, as GitBook answers a run that never reported back.
   */
  run({ run, pages }: ImportRunView, staleBefore: Date): ImportRunResponse {
    const stale =
      (run.status === 'pending' || run.status === 'in-progress') && run.updatedAt < staleBefore;
    const status = stale ? 'failed' : run.status;
    const reason = stale ? STALE_REASON : run.reason;
    return {
      object: 'import-run',
      id: run.id,
      status,
      ...(status === 'failed' && reason ? { reason } : {}),
      source:
        run.source.type === 'website'
          ? { type: 'website', url: run.source.url }
          : { type: 'file', files: run.source.files },
      target: {
        space: run.spaceId,
        ...(run.changeRequestId ? { changeRequest: run.changeRequestId } : {}),
        ...(run.pageId ? { page: run.pageId } : {}),
      },
      ...(run.siteId ? { site: run.siteId } : {}),
      ...(run.createdBy ? { createdBy: run.createdBy } : {}),
      createdAt: run.createdAt.toISOString(),
      updatedAt: run.updatedAt.toISOString(),
      ...(run.startedAt ? { startedAt: run.startedAt.toISOString() } : {}),
      ...(run.completedAt && run.status === 'completed'
        ? { completedAt: run.completedAt.toISOString() }
        : {}),
      urls: { location: this.urls.api('org', run.organizationId, 'imports', run.id) },
      pages: pages.map((page) => ({
        id: page.pageId,
        ...(page.sourceUrl !== null ? { sourceURL: page.sourceUrl } : {}),
        type: page.type,
        status: page.status,
      })),
      progress: { done: run.pagesDone, total: run.pagesTotal },
      warnings: run.warnings,
      enhance: run.enhance,
    };
  }
}
