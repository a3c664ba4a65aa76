import { Injectable } from '@nestjs/common';
import { getSchemaPath } from '@nestjs/swagger';

/**
 * A change request as the change-requests module presents it (GitBook's `ChangeRequest`). Space
 * content sits below change requests: it embeds that object in revisions and link locations
 * without knowing more of it than this.
 */
export interface PresentedChangeRequest {
  object: 'change-request';
  id: string;
  number: number;
}

/** The API document's schema of a presented change request (registered by its module). */
export const PRESENTED_CHANGE_REQUEST_SCHEMA = getSchemaPath('ChangeRequestResponse');

export type MergedChangeRequestFinder = (
  spaceId: string,
  revisionId: string,
) => Promise<PresentedChangeRequest | undefined>;

/**
 * For a `merge` revision, the change request it merged (`mergedFrom`). The change-requests
 * module registers the finder when it starts; without one, revisions show no `mergedFrom`.
 */
@Injectable()
export class MergedChangeRequests {
  private finder?: MergedChangeRequestFinder;

  register(finder: MergedChangeRequestFinder): void {
    if (this.finder) throw new Error('A merged change request finder is already registered');
    this.finder = finder;
  }

  find(spaceId: string, revisionId: string): Promise<PresentedChangeRequest | undefined> {
    return this.finder ? this.finder(spaceId, revisionId) : Promise.resolve(undefined);
  }
}
