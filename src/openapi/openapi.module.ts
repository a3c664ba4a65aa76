import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OPENAPI_SPEC_CONTENTS } from '../content-engine/api-reference/openapi-spec-contents';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { OpenAPISpec } from './entities/openapi-spec.entity';
import { OpenAPISpecSpace } from './entities/openapi-spec-space.entity';
import { OpenAPISpecVersion } from './entities/openapi-spec-version.entity';
import { OpenAPIController } from './openapi.controller';
import { OpenAPIPresenter } from './openapi.presenter';
import { OpenAPIService } from './openapi.service';
import { OpenAPISpecs } from './openapi-specs';
import { OpenAPISpecsRepository } from './openapi-specs.repository';
import { ApiReferenceRegeneration } from './processing/api-reference-regeneration';
import { OpenAPILoader } from './processing/openapi-loader';
import { OpenAPIProcessing } from './processing/openapi-processing';
import { PublishedOpenAPIController } from './published/published-openapi.controller';
import { OpenAPIVersionsController } from './versions/openapi-versions.controller';

/**
 * OpenAPI specifications of organizations: their sources, their processing in the background
 * (fetch, parse, validate, resolve relative `$ref`s) into immutable versions, and the published
 * document of public ones; the regeneration of the API-reference pages computed from a
 * specification when a new version of it is processed. Exports `OpenAPISpecs` (also as the content engine's
 * OPENAPI_SPEC_CONTENTS) for the content of a spec's latest version. Global: the content engine,
 * below it, receives that port without importing this module.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([OpenAPISpec, OpenAPISpecVersion, OpenAPISpecSpace]),
    // The regeneration of API-reference pages when a new version is processed.
    ContentEngineModule,
  ],
  controllers: [OpenAPIController, OpenAPIVersionsController, PublishedOpenAPIController],
  providers: [
    OpenAPIService,
    OpenAPISpecsRepository,
    OpenAPIPresenter,
    OpenAPISpecs,
    OpenAPILoader,
    OpenAPIProcessing,
    ApiReferenceRegeneration,
    // The content engine's port for the api-reference template, implemented here.
    { provide: OPENAPI_SPEC_CONTENTS, useExisting: OpenAPISpecs },
  ],
  exports: [OpenAPISpecs, OPENAPI_SPEC_CONTENTS],
})
export class OpenAPIModule {}
