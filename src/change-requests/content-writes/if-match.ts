import { invalidInput } from '../../platform/errors/domain-error';

/** An entity tag: `"<id>"`, weak `W/"<id>"`, or (leniently) the bare id. */
const ENTITY_TAG = /^(?:W\/)?"([^"]*)"$|^([A-Za-z0-9_-]+)$/;

/**
 * The revision an `If-Match` header expects a change request's head to be (its ETag is
 * `"<revision id>"`); undefined when there is no header or it is `*` (any head). A list of
 * several tags is refused: a head is one revision.
 */
export function expectedRevisionOf(header: string | undefined): string | undefined {
  const value = header?.trim();
  if (value === undefined || value === '' || value === '*') return undefined;
  const match = ENTITY_TAG.exec(value);
  const id = match?.[1] ?? match?.[2];
  if (!id) {
    throw invalidInput(
      'If-Match must be one entity tag: the change request\'s revision id, as "<id>".',
    );
  }
  return id;
}

/** The ETag of a change request's content: its head revision id, quoted. */
export function entityTagOf(revisionId: string): string {
  return `"${revisionId}"`;
}
