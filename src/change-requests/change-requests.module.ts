import { SpaceDocumentsController } from './content/space-documents.controller';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpaceContentModule } from '../spaces/space-content.module';
import { SpacesModule } from '../spaces/spaces.module';
import { UsersModule } from '../users/users.module';
import { ChangeRequestsController } from './change-requests.controller';
import { ChangeRequestEvents } from './change-request-events';
import { ChangeRequestsPresenter } from './change-requests.presenter';
import { CollectionsModule } from '../collections/collections.module';
import { ChangeRequestAccessPolicy } from './change-request-access';
import { ChangeRequestTransfersRegistration } from './content-transfers.registration';
import { ChangeRequestsRepository } from './change-requests.repository';
import { ChangeRequestsService } from './change-requests.service';
import { ChangeRequestChangesController } from './changes/change-request-changes.controller';
import { RevisionChangesController } from './changes/revision-changes.controller';
import { RevisionChangesPresenter } from './changes/revision-changes.presenter';
import { RevisionChanges } from './changes/revision-changes.service';
import { ChangeRequestContentController } from './content/change-request-content.controller';
import { ChangeRequestContentWritesController } from './content-writes/change-request-content-writes.controller';
import { ChangeRequestContentWritesPresenter } from './content-writes/change-request-content-writes.presenter';
import { ChangeRequestContentWrites } from './content-writes/change-request-content-writes.service';
import { ChangeRequest } from './entities/change-request.entity';
import { MergedChangeRequestsRegistration } from './merged-change-requests.registration';
import { ChangeRequestMergeService, MergeReviewFacts } from './merge/change-request-merge.service';
import { ReviewMergeFacts } from './merge/review-merge-facts';
import { ChangeRequestPdfController } from './pdf/change-request-pdf.controller';
import { ChangeRequestPdfService } from './pdf/change-request-pdf.service';
import { PdfLinks } from './pdf/pdf-links';
import { RevisionPrinter } from './pdf/revision-printer';
import { SpacePdfController } from './pdf/space-pdf.controller';
import { SpacePdfService } from './pdf/space-pdf.service';
import { Space } from '../spaces/entities/space.entity';
import { ChangeRequestContributors } from './reviews/change-request-contributors';
import { ChangeRequestContributorsRepository } from './reviews/change-request-contributors.repository';
import { ChangeRequestReviewsController } from './reviews/change-request-reviews.controller';
import { ChangeRequestReviewsPresenter } from './reviews/change-request-reviews.presenter';
import { ChangeRequestReviewsRepository } from './reviews/change-request-reviews.repository';
import { ChangeRequestReviewsService } from './reviews/change-request-reviews.service';
import { ReviewRequestMail } from './reviews/review-request-mail';
import { ChangeRequestContributor } from './reviews/entities/change-request-contributor.entity';
import { ChangeRequestRequestedReviewer } from './reviews/entities/change-request-requested-reviewer.entity';
import { ChangeRequestReview } from './reviews/entities/change-request-review.entity';
import { SpaceTemplatesController } from './templates/space-templates.controller';
import { TemplateApplication } from './templates/template-application';

/** Change requests: proposed edits to a space, their numbering, status and listings. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ChangeRequest,
      ChangeRequestReview,
      ChangeRequestRequestedReviewer,
      ChangeRequestContributor,
      Space,
    ]),
    CollectionsModule,
    SpacesModule,
    UsersModule,
    SpaceContentModule,
  ],
  controllers: [
    ChangeRequestsController,
    ChangeRequestReviewsController,
    ChangeRequestContentController,
    ChangeRequestContentWritesController,
    ChangeRequestChangesController,
    RevisionChangesController,
    ChangeRequestPdfController,
    SpacePdfController,
    SpaceTemplatesController,
    SpaceDocumentsController,
  ],
  providers: [
    ChangeRequestAccessPolicy,
    ChangeRequestTransfersRegistration,
    ChangeRequestsRepository,
    ChangeRequestContributorsRepository,
    ChangeRequestReviewsRepository,
    ChangeRequestsService,
    ChangeRequestsPresenter,
    ChangeRequestEvents,
    ChangeRequestMergeService,
    { provide: MergeReviewFacts, useClass: ReviewMergeFacts },
    ChangeRequestReviewsService,
    ReviewRequestMail,
    ChangeRequestReviewsPresenter,
    ChangeRequestContributors,
    ChangeRequestPdfService,
    PdfLinks,
    RevisionPrinter,
    SpacePdfService,
    ChangeRequestContentWrites,
    ChangeRequestContentWritesPresenter,
    MergedChangeRequestsRegistration,
    TemplateApplication,
    RevisionChanges,
    RevisionChangesPresenter,
  ],
  exports: [
    ChangeRequestsService,
    ChangeRequestsPresenter,
    ChangeRequestsRepository,
    ChangeRequestReviewsService,
    ChangeRequestContributors,
  ],
})
export class ChangeRequestsModule {}
