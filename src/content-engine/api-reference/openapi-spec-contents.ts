/**
 * What the content engine needs from OpenAPI specifications (src/openapi), as a port: the
 * api-reference template reads a specification's latest processed document through it. The
 * content engine depends on this interface only; the OpenAPI module supplies the implementation.
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
}

export const OPENAPI_SPEC_CONTENTS = Symbol('OpenAPISpecContents');
