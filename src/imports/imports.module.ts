import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { StorageModule } from '../orgs/storage/storage.module';
import { SitesModule } from '../sites/sites.module';
import { ImportRun } from './entities/import-run.entity';
import { ImportRunPage } from './entities/import-run-page.entity';
import { ImportRunner } from './import-runner';
import { ImportWriter } from './import-writer';
import { ImportsController } from './imports.controller';
import { ImportsPresenter } from './imports.presenter';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';

/**
 * Imports of content (GitBook's import runs): from a website or uploaded files, converted
 * (src/imports/convert) to a Git Sync layout, read as Git Sync reads one and written into a
 * change request of a space in the background, for a person to review and merge.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ImportRun, ImportRunPage]),
    ContentEngineModule,
    ChangeRequestsModule,
    StorageModule,
    SitesModule,
  ],
  controllers: [ImportsController],
  providers: [ImportsService, ImportsRepository, ImportsPresenter, ImportRunner, ImportWriter],
})
export class ImportsModule {}
