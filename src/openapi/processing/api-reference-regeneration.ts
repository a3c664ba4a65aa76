import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiReferenceUpdates } from '../../content-engine/api-reference/api-reference-updates';
import { JobsService } from '../../platform/jobs/jobs.service';
import { OpenAPISpecs } from '../openapi-specs';
import { OpenAPISpecsRepository } from '../openapi-specs.repository';

/** The queue of regenerations of API-reference pages, one job per new version (`{specId}`). */
export const OPENAPI_API_REFERENCE_QUEUE = 'openapi-api-reference';

export interface ApiReferenceJob {
  specId: string;
}

/**
 * Once a new version of a specification is processed, the spaces with pages computed from it
 * (the api-reference template) get them regenerated from its latest version: new tags become
 * pages, removed tags' pages go, the others follow the spec. Each space is written in its own
 * transaction; a job reads the latest version, so a retried or late job does the same work.
 */
@Injectable()
export class ApiReferenceRegeneration implements OnModuleInit {
  private readonly logger = new Logger('ApiReferenceRegeneration');

  constructor(
    private readonly specs: OpenAPISpecsRepository,
    private readonly contents: OpenAPISpecs,
    private readonly updates: ApiReferenceUpdates,
    private readonly jobs: JobsService,
  ) {}

  onModuleInit(): void {
    this.jobs.define<ApiReferenceJob>(OPENAPI_API_REFERENCE_QUEUE, ({ specId }) =>
      this.regenerate(specId),
    );
  }

  /** Queues the regeneration in the transaction that records a new version. */
  async enqueue(manager: EntityManager, specId: string): Promise<void> {
    await this.jobs.send<ApiReferenceJob>(OPENAPI_API_REFERENCE_QUEUE, { specId }, { manager });
  }

  /** Regenerates the computed pages of every space linked to the specification. */
  async regenerate(specId: string): Promise<void> {
    const spec = await this.specs.findWithSource(specId);
    if (!spec) return;
    const spaceIds = await this.specs.linkedSpaceIds(specId);
    if (spaceIds.length === 0) return;
    const content = await this.contents.latestContent(spec.organizationId, spec.id);
    if (!content || content.document === null) return;
    let written = 0;
    for (const spaceId of spaceIds) {
      const outcome = await this.updates.update(spaceId, [spec.id, spec.slug], content.document);
      if (outcome === 'none') await this.specs.unlinkSpace(specId, spaceId);
      if (outcome === 'written') written++;
      if (outcome === 'locked') {
        this.logger.warn({ specId, spaceId }, 'API reference of a locked space not regenerated');
      }
    }
    if (written > 0) this.logger.log({ specId, spaces: written }, 'API reference regenerated');
  }
}
