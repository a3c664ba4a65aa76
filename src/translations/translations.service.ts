import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { EMPTY_DOCUMENT } from '../content-engine/documents/document-validation';
import type { Organization } from '../orgs/entities/organization.entity';
import { Clock } from '../platform/clock/clock';
import { DomainError, invalidInput } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import type { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import type { Role } from '../platform/policy/roles';
import { SpacesRepository } from '../spaces/spaces.repository';
import { SpacesService } from '../spaces/spaces.service';
import type { CreateTranslationDto, UpdateTranslationDto } from './dto/translation.dto';
import { Translation } from './entities/translation.entity';
import { TRANSLATION_STUCK_AFTER_MS, TranslationRuns } from './job/translation-runs';
import { TranslationProviders } from './providers/translation-providers';
import { TranslationsRepository } from './translations.repository';

export const translationNotFound = () =>
  new DomainError('not_found', 'TranslationNotFound', 'Translation not found.');

const sourceDeleted = () =>
  new DomainError(
    'conflict',
    'TranslationSourceDeleted',
    'The source space of this translation is deleted: restore it before running the translation.',
  );

/** Longest space title (createSpace's limit). */
const MAX_SPACE_TITLE = 50;

/** The result space's title: the source's, followed by the language code. */
export function resultSpaceTitle(sourceTitle: string, language: string): string {
  const suffix = ` (${language})`;
  return `${sourceTitle.slice(0, MAX_SPACE_TITLE - suffix.length).trimEnd()}${suffix}`;
}

/**
 * The use cases of translations. Every lookup carries the organization, so a translation of
 * another organization is not found. A run is asked for here and done by TranslationRuns in the
 * background.
 */
@Injectable()
export class TranslationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly translations: TranslationsRepository,
    private readonly clock: Clock,
    private readonly spaces: SpacesService,
    private readonly spaceRows: SpacesRepository,
    private readonly providers: TranslationProviders,
    private readonly runs: TranslationRuns,
  ) {}

  /** The organization's translations, oldest first. */
  list(organizationId: string, query: PageQueryDto): Promise<Page<Translation>> {
    return this.translations.page(organizationId, query);
  }

  get(organizationId: string, id: string): Promise<Translation> {
    return this.find(this.dataSource.manager, organizationId, id);
  }

  /** 400 for a source space outside the organization (or deleted) or the source's language. */
  async create(organizationId: string, body: CreateTranslationDto): Promise<Translation> {
    if (body.language === body.source.language) {
      throw invalidInput(
        `language: the translation's language must differ from source.language (${body.language}).`,
      );
    }
    return this.dataSource.transaction(async (manager) => {
      const sourceExists = await this.spaceRows.existsLive(
        organizationId,
        body.source.space,
        manager,
      );
      if (!sourceExists) {
        throw invalidInput(`source.space: no space ${body.source.space} in this organization.`);
      }
      const now = this.clock.now();
      const translation = manager.create(Translation, {
        id: newId(),
        organizationId,
        sourceSpaceId: body.source.space,
        sourceLanguage: body.source.language,
        language: body.language,
        instructions: body.instructions ?? EMPTY_DOCUMENT,
        status: 'pending',
        rerunRequested: false,
        resultSpaceId: null,
        resultRevisionId: null,
        runBy: null,
        startedAt: null,
        lastError: null,
        lastErrorAt: null,
        runs: 0,
        totalWords: 0,
        totalPages: 0,
        totalDuration: 0,
        latestRunDuration: 0,
        latestPages: 0,
        latestWords: 0,
        createdAt: now,
        updatedAt: now,
      });
      await manager.insert(Translation, translation as QueryDeepPartialEntity<Translation>);
      return translation;
    });
  }

  /** Replaces the instructions; the next run translates every page again with them. */
  async update(
    organizationId: string,
    id: string,
    body: UpdateTranslationDto,
  ): Promise<Translation> {
    return this.dataSource.transaction(async (manager) => {
      const translation = await this.find(manager, organizationId, id, true);
      translation.instructions = body.instructions;
      translation.updatedAt = this.clock.now();
      await manager.update(Translation, translation.id, {
        instructions: translation.instructions,
        updatedAt: translation.updatedAt,
      } as QueryDeepPartialEntity<Translation>);
      return translation;
    });
  }

  /** Deletes the translation; its result space stays, as an ordinary space. */
  async remove(organizationId: string, id: string): Promise<void> {
    await this.dataSource.getRepository(Translation).delete({ organizationId, id });
  }

  /**
   * Asks for a run: 404 for an unknown translation, then 409 when no provider is configured
   * (nothing changes). The first run (or one
   * after the result space was deleted) creates the result space beside the source, as the
   * caller, with the caller's access checked there. A run asked for while one is running
   * follows it instead of running beside it.
   */
  async run(
    organization: Organization,
    role: Role | null,
    userId: string,
    id: string,
  ): Promise<void> {
    await this.get(organization.id, id);
    this.providers.current();
    const queue = await this.dataSource.transaction(async (manager) => {
      const translation = await this.find(manager, organization.id, id, true);
      const source = await this.translations.findSpaceTitle(translation.sourceSpaceId, manager);
      if (!source || source.deleted_at !== null) throw sourceDeleted();
      const now = this.clock.now();
      const update: Partial<Translation> = { runBy: userId, updatedAt: now };
      if (!(await this.liveSpace(manager, translation.resultSpaceId))) {
        const space = await this.spaces.create(
          organization,
          role,
          userId,
          {
            title: resultSpaceTitle(source.title, translation.language),
            parent: source.parent_id ?? undefined,
            language: translation.language,
            empty: true,
          },
          manager,
        );
        Object.assign(update, { resultSpaceId: space.id, resultRevisionId: null });
      }
      // A run `running` for too long was lost: it is asked for again instead of awaited.
      const running =
        translation.status === 'running' &&
        translation.startedAt !== null &&
        now.getTime() - translation.startedAt.getTime() < TRANSLATION_STUCK_AFTER_MS;
      Object.assign(update, running ? { rerunRequested: true } : { status: 'pending' });
      await manager.update(
        Translation,
        translation.id,
        update as QueryDeepPartialEntity<Translation>,
      );
      return !running;
    });
    if (queue) await this.runs.enqueue(id);
  }

  private async liveSpace(manager: EntityManager, spaceId: string | null): Promise<boolean> {
    if (spaceId === null) return false;
    const space = await this.spaceRows.findHead(spaceId, '', manager);
    return space !== undefined && space.deletedAt === null;
  }

  private async find(
    manager: EntityManager,
    organizationId: string,
    id: string,
    lock = false,
  ): Promise<Translation> {
    const translation = await manager.findOne(Translation, {
      where: { organizationId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!translation) throw translationNotFound();
    return translation;
  }
}
