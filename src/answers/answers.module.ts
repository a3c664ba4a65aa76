import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { AgentInstructionsModule } from '../orgs/agent-instructions/agent-instructions.module';
import { AiModule } from '../platform/ai/ai.module';
import { SitesModule } from '../sites/sites.module';
import { SpaceContentModule } from '../spaces/space-content.module';
import { AnswerWriter } from './answer-writer';
import { AssistantConversations } from './assistant/assistant-conversations';
import { AssistantConversationsRepository } from './assistant/assistant-conversations.repository';
import { SiteAssistantResponse } from './assistant/entities/site-assistant-response.entity';
import { AssistantRecorder } from './assistant/assistant-recorder';
import { SiteAssistantController } from './assistant/site-assistant.controller';
import { SiteAssistantService } from './assistant/site-assistant.service';
import { ToolChat } from './assistant/tool-chat';
import { OrganizationAnswersService } from './organization/organization-answers.service';
import { OrganizationAskController } from './organization/organization-ask.controller';
import { ReadableSpacesRepository } from './organization/readable-spaces.repository';
import { AiUsageController } from './usage/ai-usage.controller';
import { AiUsageCounter } from './usage/ai-usage-counter.entity';
import { AiUsageRepository } from './usage/ai-usage.repository';
import { AnswerLimits } from './usage/answer-limits.service';
import { SiteAgentSettingsModule } from './agent-settings/site-agent-settings.module';
import { SiteQuestionsModule } from './questions/site-questions.module';
import { SiteAskController } from './site-ask.controller';
import { SiteAnswersService } from './site-answers.service';

/**
 * Answers from a site's or an organization's content by the operator's model (GitBook's ask):
 * retrieval through the site search or the organization's, so an answer draws only on what its
 * caller may read; limits per visitor, site and member, and a monthly token budget (usage/).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([AiUsageCounter, SiteAssistantResponse]),
    SitesModule,
    SpaceContentModule,
    ContentEngineModule,
    AgentInstructionsModule,
    AiModule,
    SiteQuestionsModule,
    SiteAgentSettingsModule,
  ],
  controllers: [
    SiteAskController,
    OrganizationAskController,
    AiUsageController,
    SiteAssistantController,
  ],
  providers: [
    SiteAnswersService,
    AnswerWriter,
    AnswerLimits,
    AiUsageRepository,
    OrganizationAnswersService,
    ReadableSpacesRepository,
    SiteAssistantService,
    AssistantConversations,
    AssistantConversationsRepository,
    AssistantRecorder,
    ToolChat,
  ],
})
export class AnswersModule {}
