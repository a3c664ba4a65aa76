import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * A redirect inside a space: a path of the space (slug path, no leading slash, e.g. 'old/page'
 * or 'guides/old-name') to one of its pages.
 */
export interface SpacePathRedirect {
  source: string;
  pageId: string;
}

export interface SpaceRedirectsUpdate {
  /** The caller's transaction. */
  manager: EntityManager;
  spaceId: string;
  /** The redirects the space asks for now (replacing `previous`). */
  redirects: readonly SpacePathRedirect[];
  /** Sources the space asked for before; those not in `redirects` any more are removed. */
  previous: readonly string[];
}

export type SpaceRedirectsHandler = (update: SpaceRedirectsUpdate) => Promise<void>;

/**
 * The redirects a space asks for (a Git repository's `.gitbook.yaml`), made where the space is
 * published. The sites module registers the handler when it starts; without one, they go
 * nowhere.
 */
@Injectable()
export class SpaceRedirects {
  private handler?: SpaceRedirectsHandler;

  register(handler: SpaceRedirectsHandler): void {
    if (this.handler) throw new Error('A space redirects handler is already registered');
    this.handler = handler;
  }

  apply(update: SpaceRedirectsUpdate): Promise<void> {
    return this.handler ? this.handler(update) : Promise.resolve();
  }
}
