import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { SpacesModule } from '../spaces/spaces.module';
import { SpaceContentModule } from '../spaces/space-content.module';
import { GitSync } from './entities/git-sync.entity';
import { GitSyncState } from './entities/git-sync-state.entity';
import { GitSyncsRepository } from './git-syncs.repository';
import { SiteConfigSync } from './sync/site-config-sync';
import { GitController } from './git.controller';
import { GitPresenter } from './git.presenter';
import { GitService } from './git.service';
import { GitExporter } from './jobs/git-exporter';
import { GitImporter } from './jobs/git-importer';
import { GitOperations } from './jobs/git-operations';
import { CredentialsCipher } from './remote/credentials-cipher';

/**
 * Git import and export of a space (GitBook's Git Sync layout) over http(s) through
 * isomorphic-git and OutboundHttp, as background jobs; the space's Git setup and the outcome
 * of its latest operation (`git/info`).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([GitSync, GitSyncState]),
    ContentEngineModule,
    ChangeRequestsModule,
    SpaceContentModule,
    SpacesModule,
  ],
  controllers: [GitController],
  providers: [
    GitService,
    GitPresenter,
    GitOperations,
    GitImporter,
    GitExporter,
    CredentialsCipher,
    GitSyncsRepository,
    SiteConfigSync,
  ],
})
export class GitModule {}
