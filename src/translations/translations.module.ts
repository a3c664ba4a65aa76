import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { AiModule } from '../platform/ai/ai.module';
import { SpacesModule } from '../spaces/spaces.module';
import { Translation } from './entities/translation.entity';
import { TranslationPage } from './entities/translation-page.entity';
import { GlossaryEntry } from './glossary/entities/glossary-entry.entity';
import { GlossaryController } from './glossary/glossary.controller';
import { GlossaryPresenter } from './glossary/glossary.presenter';
import { GlossaryRepository } from './glossary/glossary.repository';
import { GlossaryService } from './glossary/glossary.service';
import { TranslationRuns } from './job/translation-runs';
import { TranslationProviders } from './providers/translation-providers';
import { TranslationsController } from './translations.controller';
import { TranslationsPresenter } from './translations.presenter';
import { TranslationsRepository } from './translations.repository';
import { TranslationsService } from './translations.service';
import { TranslatedSpacesRegistration } from './translated-spaces.registration';

/**
 * Translations of spaces into other languages: their settings, and their runs in the background
 * through the provider chosen by TRANSLATION_PROVIDER (an OpenAI-compatible model, LibreTranslate
 * or DeepL), which write the result space through the content engine; and the organization's
 * translation glossary, which every run applies.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Translation, TranslationPage, GlossaryEntry]),
    AiModule,
    ContentEngineModule,
    SpacesModule,
  ],
  controllers: [TranslationsController, GlossaryController],
  providers: [
    TranslationsService,
    TranslationsRepository,
    TranslationsPresenter,
    TranslationRuns,
    TranslationProviders,
    TranslatedSpacesRegistration,
    GlossaryService,
    GlossaryRepository,
    GlossaryPresenter,
  ],
})
export class TranslationsModule {}
