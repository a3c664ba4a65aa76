import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContentEngineModule } from '../../content-engine/content-engine.module';
import { SitesModule } from '../../sites/sites.module';
import { AskRecorder } from './ask-recorder';
import { SiteAgentFeedback } from './entities/site-agent-feedback.entity';
import { SiteQuestionAnswer } from './entities/site-question-answer.entity';
import { SiteQuestion } from './entities/site-question.entity';
import { SiteAgentFeedbackController } from './site-agent-feedback.controller';
import { SiteQuestionsController } from './site-questions.controller';
import { SiteQuestionsPresenter } from './site-questions.presenter';
import { SiteQuestionsRepository } from './site-questions.repository';
import { SiteQuestionsRetention } from './site-questions-retention';
import { SiteQuestionsService } from './site-questions.service';

/**
 * What visitors ask a site's AI answers, recorded (AskRecorder wraps each ask's stream) and read
 * back as GitBook's site questions and answers; agents' feedback to a site; their retention.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SiteQuestion, SiteQuestionAnswer, SiteAgentFeedback]),
    SitesModule,
    ContentEngineModule,
  ],
  controllers: [SiteQuestionsController, SiteAgentFeedbackController],
  providers: [
    SiteQuestionsService,
    SiteQuestionsRepository,
    SiteQuestionsPresenter,
    SiteQuestionsRetention,
    AskRecorder,
  ],
  exports: [AskRecorder],
})
export class SiteQuestionsModule {}
