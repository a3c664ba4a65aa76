import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError, invalidInput } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import type { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import {
  CreateOpenAPISpecDto,
  OpenAPISpecSourceDto,
  PutOpenAPISpecDto,
  slugProblem,
  UpdateOpenAPISpecDto,
} from './dto/openapi-spec.dto';
import { OpenAPISpec, type OpenAPIVisibility } from './entities/openapi-spec.entity';
import {
  OpenAPISpecVersion,
  type OpenAPISpecVersionWithContent,
} from './entities/openapi-spec-version.entity';
import { OpenAPISpecsRepository } from './openapi-specs.repository';
import { OpenAPIProcessing } from './processing/openapi-processing';

export const openAPISpecNotFound = () =>
  new DomainError('not_found', 'OpenAPISpecNotFound', 'OpenAPI specification not found.');

export const openAPISpecVersionNotFound = () =>
  new DomainError(
    'not_found',
    'OpenAPISpecVersionNotFound',
    'OpenAPI specification version not found.',
  );

/** `latest` before the first successful processing. */
const noVersionYet = () =>
  new DomainError(
    'not_found',
    'OpenAPISpecVersionNotFound',
    'OpenAPI specification version not found: the specification has no version yet.',
  );

/** The raw source of a version made before raw sources were kept. */
const noRawSource = () =>
  new DomainError(
    'not_found',
    'OpenAPISpecRawSourceNotFound',
    'OpenAPI specification version not found: its raw source was not kept (it was made ' +
      'before Bindery kept raw sources; a new version will have it).',
  );

const slugTaken = (slug: string) =>
  new DomainError(
    'conflict',
    'OpenAPISpecSlugTaken',
    `An OpenAPI specification with slug "${slug}" already exists in this organization.`,
  );

/** `versions/latest` and `versions/{versionId}` in one. */
export const LATEST = 'latest';

export type { OpenAPISpecVersionWithContent } from './entities/openapi-spec-version.entity';

/**
 * The use cases of specifications and their versions. Every lookup carries the organization, so
 * a specification of another organization is not found. Writes leave the spec `pending` and
 * queue its processing once committed.
 */
@Injectable()
export class OpenAPIService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly specs: OpenAPISpecsRepository,
    private readonly clock: Clock,
    private readonly processing: OpenAPIProcessing,
  ) {}

  /** The organization's specifications, oldest first. */
  list(organizationId: string, query: PageQueryDto): Promise<Page<OpenAPISpec>> {
    return this.specs.page(organizationId, query);
  }

  async get(organizationId: string, slug: string): Promise<OpenAPISpec> {
    return this.find(this.dataSource.manager, organizationId, slug);
  }

  async create(organizationId: string, body: CreateOpenAPISpecDto): Promise<OpenAPISpec> {
    const spec = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.insert(
        manager,
        organizationId,
        body.slug,
        body.source,
        body.visibility,
      );
      if (!inserted) throw slugTaken(body.slug);
      return inserted;
    });
    await this.processing.enqueue(spec.id);
    return spec;
  }

  /** Creates the specification `slug` or replaces its source; `created` tells which. */
  async put(
    organizationId: string,
    slug: string,
    body: PutOpenAPISpecDto,
  ): Promise<{ spec: OpenAPISpec; created: boolean }> {
    const problem = slugProblem(slug);
    if (problem) throw invalidInput(problem);
    const result = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.insert(
        manager,
        organizationId,
        slug,
        body.source,
        body.visibility,
      );
      if (inserted) return { spec: inserted, created: true };
      const spec = await this.find(manager, organizationId, slug, true);
      const now = this.clock.now();
      Object.assign(spec, {
        sourceUrl: body.source.url ?? null,
        sourceText: body.source.text ?? null,
        sourceRevision: spec.sourceRevision + 1,
        processingState: 'pending',
        queuedAt: now,
        updatedAt: now,
        ...(body.visibility !== undefined ? { visibility: body.visibility } : {}),
      });
      await manager.update(OpenAPISpec, spec.id, {
        sourceUrl: spec.sourceUrl,
        sourceText: spec.sourceText,
        sourceRevision: spec.sourceRevision,
        processingState: spec.processingState,
        queuedAt: spec.queuedAt,
        updatedAt: spec.updatedAt,
        visibility: spec.visibility,
      });
      return { spec, created: false };
    });
    await this.processing.enqueue(result.spec.id);
    return result;
  }

  async update(
    organizationId: string,
    slug: string,
    body: UpdateOpenAPISpecDto,
  ): Promise<OpenAPISpec> {
    return this.dataSource.transaction(async (manager) => {
      const spec = await this.find(manager, organizationId, slug, true);
      if (spec.visibility !== body.visibility) {
        spec.visibility = body.visibility;
        spec.updatedAt = this.clock.now();
        await manager.update(OpenAPISpec, spec.id, {
          visibility: spec.visibility,
          updatedAt: spec.updatedAt,
        });
      }
      return spec;
    });
  }

  /** Deletes the specification and its versions; nothing to do when there is none. */
  async remove(organizationId: string, slug: string): Promise<void> {
    await this.dataSource.getRepository(OpenAPISpec).delete({ organizationId, slug });
  }

  /** The versions of the specification, newest first. */
  async listVersions(
    organizationId: string,
    slug: string,
    query: PageQueryDto,
  ): Promise<{ spec: OpenAPISpec; page: Page<OpenAPISpecVersion> }> {
    const spec = await this.get(organizationId, slug);
    const page = await this.specs.pageVersions(spec.id, query);
    return { spec, page };
  }

  /** The version `versionId` (or `latest`) of the specification. */
  async getVersion(
    organizationId: string,
    slug: string,
    versionId: string,
  ): Promise<{ spec: OpenAPISpec; version: OpenAPISpecVersion }> {
    const spec = await this.get(organizationId, slug);
    const version = await this.findVersion(spec, versionId, false);
    return { spec, version };
  }

  /** As {@link getVersion}, with the documents. */
  async getVersionContent(
    organizationId: string,
    slug: string,
    versionId: string,
  ): Promise<{ spec: OpenAPISpec; version: OpenAPISpecVersionWithContent }> {
    const spec = await this.get(organizationId, slug);
    const version = await this.findVersion(spec, versionId, true);
    return { spec, version: version as OpenAPISpecVersionWithContent };
  }

  /**
   * The raw source of the latest version: its root document's text exactly as given or fetched,
   * and whether it is JSON or YAML. 404 without a version, or for a version made before raw
   * sources were kept.
   */
  async getLatestRawSource(
    organizationId: string,
    slug: string,
  ): Promise<{ text: string; format: 'json' | 'yaml' }> {
    const spec = await this.get(organizationId, slug);
    if (spec.lastVersionId === null) throw noVersionYet();
    const raw = await this.specs.findVersionRawSource(spec.id, spec.lastVersionId);
    if (raw === undefined) throw openAPISpecVersionNotFound();
    if (raw === null) throw noRawSource();
    return raw;
  }

  private async findVersion(
    spec: OpenAPISpec,
    versionId: string,
    withContent: boolean,
  ): Promise<OpenAPISpecVersion> {
    const id = versionId === LATEST ? spec.lastVersionId : versionId;
    if (id === null) throw noVersionYet();
    const version = await this.specs.findVersion(spec.id, id, withContent);
    if (!version) throw openAPISpecVersionNotFound();
    return version;
  }

  private async find(
    manager: EntityManager,
    organizationId: string,
    slug: string,
    lock = false,
  ): Promise<OpenAPISpec> {
    const spec = await manager.findOne(OpenAPISpec, {
      where: { organizationId, slug },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!spec) throw openAPISpecNotFound();
    return spec;
  }

  /** A new pending specification, or null when the slug is taken in the organization. */
  private async insert(
    manager: EntityManager,
    organizationId: string,
    slug: string,
    source: OpenAPISpecSourceDto,
    visibility: OpenAPIVisibility = 'private',
  ): Promise<OpenAPISpec | null> {
    const now = this.clock.now();
    const spec: OpenAPISpec = {
      id: newId(),
      organizationId,
      slug,
      sourceUrl: source.url ?? null,
      sourceText: source.text ?? null,
      sourceRevision: 1,
      visibility,
      processingState: 'pending',
      queuedAt: now,
      lastVersionId: null,
      lastProcessedAt: null,
      lastProcessErrorCode: null,
      lastProcessedErrors: null,
      createdAt: now,
      updatedAt: now,
    };
    return (await this.specs.insertUnlessSlugTaken(spec, manager)) ? spec : null;
  }
}
