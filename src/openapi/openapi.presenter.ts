import { Injectable } from '@nestjs/common';
import type { Role } from '../platform/policy/roles';
import { UrlBuilder } from '../platform/urls/url-builder';
import {
  OpenAPISpecContentResponse,
  OpenAPISpecResponse,
  OpenAPISpecVersionResponse,
} from './dto/openapi-spec.response';
import { openAPISpecPermissions } from './openapi-access';
import type { OpenAPISpec } from './entities/openapi-spec.entity';
import type { OpenAPISpecVersion } from './entities/openapi-spec-version.entity';
import type { OpenAPISpecVersionWithContent } from './entities/openapi-spec-version.entity';

@Injectable()
export class OpenAPIPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** GitBook's `OpenAPISpec`, for a caller whose organization role is `role`. */
  spec(spec: OpenAPISpec, role: Role | null): OpenAPISpecResponse {
    return {
      object: 'openapi-spec',
      id: spec.id,
      createdAt: spec.createdAt.toISOString(),
      updatedAt: spec.updatedAt.toISOString(),
      slug: spec.slug,
      ...(spec.sourceUrl !== null ? { sourceURL: spec.sourceUrl } : {}),
      processingState: spec.processingState,
      visibility: spec.visibility,
      ...(spec.lastVersionId !== null ? { lastVersion: spec.lastVersionId } : {}),
      ...(spec.lastProcessedAt !== null
        ? { lastProcessedAt: spec.lastProcessedAt.toISOString() }
        : {}),
      ...(spec.lastProcessErrorCode !== null
        ? {
            lastProcessErrorCode: spec.lastProcessErrorCode,
            lastProcessedErrors: spec.lastProcessedErrors ?? [],
          }
        : {}),
      permissions: openAPISpecPermissions(role),
      urls: {
        location: this.location(spec),
        app: this.urls.app('o', spec.organizationId, 'openapi', spec.slug),
        ...(spec.visibility === 'public' ? { published: this.publishedUrl(spec) } : {}),
      },
    };
  }

  /** GitBook's `OpenAPISpecVersion`. */
  version(spec: OpenAPISpec, version: OpenAPISpecVersion): OpenAPISpecVersionResponse {
    return {
      object: 'openapi-spec-version',
      id: version.id,
      createdAt: version.createdAt.toISOString(),
      url: this.versionUrl(spec, version),
      urls: { location: this.versionLocation(spec, version) },
    };
  }

  /** GitBook's `OpenAPISpecContent`. */
  content(spec: OpenAPISpec, version: OpenAPISpecVersionWithContent): OpenAPISpecContentResponse {
    return { filesystem: version.filesystem, url: this.versionUrl(spec, version) };
  }

  /**
   * Where anyone reads the latest version of a public specification, as one JSON document:
   * PUBLIC_URL/v1/openapi/{organizationId}/{specSlug} (PublishedOpenAPIController).
   */
  publishedUrl(spec: Pick<OpenAPISpec, 'organizationId' | 'slug'>): string {
    return this.urls.api('openapi', spec.organizationId, spec.slug);
  }

  private location(spec: OpenAPISpec): string {
    return this.urls.api('orgs', spec.organizationId, 'openapi', spec.slug);
  }

  private versionLocation(spec: OpenAPISpec, version: OpenAPISpecVersion): string {
    return this.urls.api('orgs', spec.organizationId, 'openapi', spec.slug, 'versions', version.id);
  }

  /** Where the root document was read; for a text source, this version's content in the API. */
  private versionUrl(spec: OpenAPISpec, version: OpenAPISpecVersion): string {
    return version.sourceUrl ?? `${this.versionLocation(spec, version)}/content`;
  }
}
