import type { EntityManager } from 'typeorm';

/**
 * What the content engine needs from OpenAPI specifications (src/openapi), as a port: the
 * api-reference template reads a specification's latest processed document through it, and
 * records the spaces it gives pages computed from a specification, whose pages are regenerated
 * when a new version is processed. The content engine depends on this interface only; the
 * OpenAPI module supplies the implementation.
 */
export interface OpenAPISpecLatestContent {
  specId: string;
  /** Null (with `document`) while the specification has no processed version yet. */
  versionId: string | null;
  /** The parsed OpenAPI root document (3.0, 3.1 or Swagger 2.0), `$ref`s resolved. */
  document: unknown;
}

export interface OpenAPISpecContents {
  /** The latest content of the organization's specification, by id or slug; null if unknown. */
  latestContent(
    organizationId: string,
    specIdOrSlug: string,
  ): Promise<OpenAPISpecLatestContent | null>;
  /** Records, in the caller's transaction, that `spaceId` has pages computed from `specId`. */
  linkSpace(manager: EntityManager, specId: string, spaceId: string): Promise<void>;
}

export const OPENAPI_SPEC_CONTENTS = Symbol('OpenAPISpecContents');
