import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiModule } from '../platform/ai/ai.module';
import { AiAnalysis } from './analysis/ai-analysis';
import { ConversationAnalysis } from './analysis/conversation-analysis';
import { ConversationClustersController } from './conversation-clusters.controller';
import { ConversationClustersService } from './conversation-clusters.service';
import { ConversationIssuesRepository } from './conversation-issues.repository';
import { ConversationIssuesController } from './conversation-issues.controller';
import { ConversationsController } from './conversations.controller';
import { ConversationsPresenter } from './conversations.presenter';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { Conversation } from './entities/conversation.entity';
import { ConversationIssue } from './entities/conversation-issue.entity';
import { ConversationIssuesCluster } from './entities/conversation-issues-cluster.entity';

/**
 * Conversations ingested from support tools, the issues their analysis extracts in the
 * background, and the clusters of similar issues across an organization.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Conversation, ConversationIssue, ConversationIssuesCluster]),
    AiModule,
  ],
  controllers: [
    ConversationsController,
    ConversationIssuesController,
    ConversationClustersController,
  ],
  providers: [
    ConversationsService,
    ConversationClustersService,
    ConversationsRepository,
    ConversationIssuesRepository,
    ConversationsPresenter,
    ConversationAnalysis,
    AiAnalysis,
  ],
})
export class ConversationsModule {}
