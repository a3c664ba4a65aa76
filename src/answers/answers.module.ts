import { Module } from '@nestjs/common';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { AgentInstructionsModule } from '../orgs/agent-instructions/agent-instructions.module';
import { AiModule } from '../platform/ai/ai.module';
import { SitesModule } from '../sites/sites.module';
import { SiteAskController } from './site-ask.controller';
import { SiteAnswersService } from './site-answers.service';

/**
 * Answers from a site's content by the operator's model (GitBook's ask): retrieval through the
 * site search, so an answer draws only on what its caller may read. Nothing is stored.
 */
@Module({
  imports: [SitesModule, ContentEngineModule, AgentInstructionsModule, AiModule],
  controllers: [SiteAskController],
  providers: [SiteAnswersService],
})
export class AnswersModule {}
