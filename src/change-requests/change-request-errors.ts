import { DomainError } from '../platform/errors/domain-error';

/**
 * A merged change request is part of the primary content: every change to it (PATCH, reviews,
 * review requests, content writes, merge, update) is a 409 naming what was refused.
 */
export const changeRequestMerged = (refused: string) =>
  new DomainError(
    'conflict',
    'ChangeRequestAlreadyMerged',
    `The change request is merged: ${refused}.`,
  );
