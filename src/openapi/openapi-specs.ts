import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import type { OpenAPISpecContents } from '../content-engine/api-reference/openapi-spec-contents';
import { OpenAPISpecsRepository } from './openapi-specs.repository';
import { bundledDocument, dereferencedDocument } from './processing/openapi-content';

/**
 * The latest processed document of a specification, for other modules (the content engine's
 * `OpenAPISpecContents` port has this shape).
 */
export type LatestOpenAPIContent =
  | {
      specId: string;
      versionId: string;
      /** The root document, every `$ref` replaced by its target except circular ones. */
      document: Record<string, unknown>;
    }
  /** The specification exists but has no version yet (never processed successfully). */
  | { specId: string; versionId: null; document: null };

/** Published documents kept in memory: versions are immutable, so by version id. */
const PUBLISHED_CACHE_SIZE = 16;

/**
 * What the module offers the rest of Bindery: the latest content of a specification (the
 * `api-reference` space template builds its pages from it), and the published document of a
 * public specification.
 */
@Injectable()
export class OpenAPISpecs implements OpenAPISpecContents {
  private readonly published = new Map<string, Promise<Record<string, unknown> | null>>();

  constructor(
    private readonly specs: OpenAPISpecsRepository,
    private readonly clock: Clock,
  ) {}

  /** Records that `spaceId` has pages computed from `specId` (regenerated on new versions). */
  linkSpace(manager: EntityManager, specId: string, spaceId: string): Promise<void> {
    return this.specs.linkSpace(specId, spaceId, this.clock.now(), manager);
  }

  /**
   * The latest version of the organization's specification `specIdOrSlug` (an id, or a slug as
   * `openapi` content refs name specs), dereferenced; `versionId` and `document` null when it
   * has no version yet; null when there is no such specification.
   */
  async latestContent(
    organizationId: string,
    specIdOrSlug: string,
  ): Promise<LatestOpenAPIContent | null> {
    const head = await this.specs.findHeadByIdOrSlug(organizationId, specIdOrSlug);
    if (head === null) return null;
    const { id: specId, last_version_id: versionId } = head;
    const version = versionId === null ? null : await this.specs.findStoredVersion(versionId);
    if (versionId === null || version === null) return { specId, versionId: null, document: null };
    return { specId, versionId, document: await dereferencedDocument(version) };
  }

  /**
   * The latest version of a `public` specification as one document (files referenced by
   * relative `$ref`s moved in); null when not public, absent, or without a version.
   */
  async publishedDocument(
    organizationId: string,
    slug: string,
  ): Promise<Record<string, unknown> | null> {
    const versionId = await this.specs.findPublicLatestVersionId(organizationId, slug);
    if (!versionId) return null;
    let document = this.published.get(versionId);
    if (!document) {
      // The spec (and its versions) may be deleted between the two reads: then there is none.
      document = this.specs
        .findStoredVersion(versionId)
        .then((version) => (version ? bundledDocument(version) : null));
      this.published.set(versionId, document);
      document.catch(() => this.published.delete(versionId));
      if (this.published.size > PUBLISHED_CACHE_SIZE) {
        this.published.delete(this.published.keys().next().value!);
      }
    }
    return document;
  }
}
