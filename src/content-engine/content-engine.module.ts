import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiModule } from '../platform/ai/ai.module';
import { ApiReferenceUpdates } from './api-reference/api-reference-updates';
import { ContentEngine } from './content-engine';
import { ContentObjectsRepository } from './content-objects.repository';
import { ContentDiff } from './diff/content-diff';
import { ContentObject } from './entities/content-object.entity';
import { Revision } from './entities/revision.entity';
import { FileDownloads } from './files/file-downloads';
import { ContentGarbageCollector } from './gc/content-garbage-collector';
import { ContentGcSchedule } from './gc/content-gc-schedule';
import { ContentReader } from './reads/content-reader';
import { RevisionsRepository } from './revisions.repository';
import { PageSearch } from './search/entities/page-search.entity';
import { PageSection } from './search/entities/page-section.entity';
import { SectionEmbedding } from './search/entities/section-embedding.entity';
import { SearchIndexState } from './search/entities/search-index-state.entity';
import { SearchLexiconWord } from './search/entities/search-lexicon-word.entity';
import { SearchIndexListener } from './search/search-index.listener';
import { SearchIndexRepository } from './search/search-index.repository';
import { SearchIndexCatchUp } from './search/search-index-catch-up';
import { SearchIndexUpgrade } from './search/search-index-upgrade';
import { SearchIndexer } from './search/search-indexer';
import { SectionEmbeddings } from './search/section-embeddings';
import { SectionEmbeddingsRepository } from './search/section-embeddings.repository';
import { ContentHeads } from './writes/content-heads';
import { ContentWriter } from './writes/content-writer';
import { PrimaryMovedListeners } from './writes/primary-moved-listeners';
import { SpaceTemplates } from './writes/space-templates';

/** Writes on a space's primary revision or a change request's head (src/content-engine/writes). */
const WRITES = [
  ContentWriter,
  ContentHeads,
  PrimaryMovedListeners,
  SpaceTemplates,
  ApiReferenceUpdates,
];

/** The engine's tables: `revisions`, `content_objects`, `page_sections` and `page_search`. */
const REPOSITORIES = [
  RevisionsRepository,
  ContentObjectsRepository,
  SearchIndexRepository,
  SectionEmbeddingsRepository,
];

/** Garbage collection of unreachable objects and blobs (src/content-engine/gc). */
const GC = [ContentGarbageCollector, ContentGcSchedule];

/**
 * The content engine: revisions and the immutable objects they are made of, their reads and
 * writes, the search index and garbage collection. It has no routes and imports no domain
 * module: the HTTP surfaces live with their owners (spaces/, change-requests/), and what it
 * needs from above comes through ports (OPENAPI_SPEC_CONTENTS, from the global OpenAPI module,
 * for the api-reference template; PrimaryMovedListeners for whoever follows the primary;
 * ContentHeads, where the spaces and change-requests modules register the heads they keep).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ContentObject,
      Revision,
      PageSection,
      PageSearch,
      SearchLexiconWord,
      SearchIndexState,
      SectionEmbedding,
    ]),
    AiModule,
  ],
  providers: [
    ContentEngine,
    ContentReader,
    ContentDiff,
    SearchIndexer,
    SearchIndexListener,
    SearchIndexUpgrade,
    SearchIndexCatchUp,
    SectionEmbeddings,
    FileDownloads,
    ...REPOSITORIES,
    ...WRITES,
    ...GC,
  ],
  exports: [
    ContentEngine,
    ContentReader,
    ContentDiff,
    SearchIndexer,
    SectionEmbeddings,
    FileDownloads,
    ...REPOSITORIES,
    ...WRITES,
  ],
})
export class ContentEngineModule {}
