import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  PrimaryMovedListeners,
  type PrimaryMoved,
} from '../../content-engine/writes/primary-moved-listeners';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { SiteStructureRepository } from '../structure/site-structure.repository';

/**
 * Asks the site renderer to revalidate `space:<id>` when the primary revision of a space that a
 * published site shows moves (a merge, a content write, a template, a translation or Git
 * import), so that it renders the new revision. It listens in the writer's transaction and
 * queues there: a write that rolls back asks nothing, one that commits cannot lose its request.
 */
@Injectable()
export class PublishedSpaceRevalidation implements OnModuleInit {
  constructor(
    private readonly listeners: PrimaryMovedListeners,
    private readonly structure: SiteStructureRepository,
    private readonly revalidation: Revalidation,
  ) {}

  onModuleInit(): void {
    this.listeners.register((event) => this.primaryMoved(event));
  }

  async primaryMoved({ spaceId, fromRevision, manager }: PrimaryMoved): Promise<void> {
    // A first revision is a new space's (or a duplicate's): no site shows it yet.
    if (fromRevision === null || !this.revalidation.enabled) return;
    if (await this.structure.isSpacePublished(spaceId, manager)) {
      await this.revalidation.spaces([spaceId], manager);
    }
  }
}
