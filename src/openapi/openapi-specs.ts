import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OpenAPISpecContents } from '../content-engine/api-reference/openapi-spec-contents';
import { OpenAPISpecVersion } from './entities/openapi-spec-version.entity';
import {
  bundledDocument,
  dereferencedDocument,
  type StoredSpec,
} from './processing/openapi-content';

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

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The latest version of the organization's specification `specIdOrSlug` (an id, or a slug as
   * `openapi` content refs name specs), dereferenced; `versionId` and `document` null when it
   * has no version yet; null when there is no such specification.
   */
  async latestContent(
    organizationId: string,
    specIdOrSlug: string,
  ): Promise<LatestOpenAPIContent | null> {
    const rows: { id: string; last_version_id: string | null }[] = await this.dataSource.query(
      `SELECT id, last_version_id FROM openapi_specs
        WHERE organization_id = $1 AND (id = $2 OR slug = $2)
        ORDER BY (id = $2) DESC LIMIT 1`,
      [organizationId, specIdOrSlug],
    );
    if (rows.length === 0) return null;
    const { id: specId, last_version_id: versionId } = rows[0];
    const version = versionId === null ? null : await this.stored(versionId);
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
    const rows: { last_version_id: string | null }[] = await this.dataSource.query(
      `SELECT last_version_id FROM openapi_specs
        WHERE organization_id = $1 AND slug = $2 AND visibility = 'public'`,
      [organizationId, slug],
    );
    const versionId = rows[0]?.last_version_id;
    if (!versionId) return null;
    let document = this.published.get(versionId);
    if (!document) {
      // The spec (and its versions) may be deleted between the two reads: then there is none.
      document = this.stored(versionId).then((version) =>
        version ? bundledDocument(version) : null,
      );
      this.published.set(versionId, document);
      document.catch(() => this.published.delete(versionId));
      if (this.published.size > PUBLISHED_CACHE_SIZE) {
        this.published.delete(this.published.keys().next().value!);
      }
    }
    return document;
  }

  private async stored(versionId: string): Promise<StoredSpec | null> {
    return this.dataSource
      .getRepository(OpenAPISpecVersion)
      .createQueryBuilder('version')
      .select(['version.rootPath', 'version.sourceUrl', 'version.filesystem'])
      .where('version.id = :versionId', { versionId })
      .getOne() as Promise<StoredSpec | null>;
  }
}
