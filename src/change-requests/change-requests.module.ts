import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpacesModule } from '../spaces/spaces.module';
import { UsersModule } from '../users/users.module';
import { ChangeRequestsController } from './change-requests.controller';
import { ChangeRequestsPresenter } from './change-requests.presenter';
import { ChangeRequestsService } from './change-requests.service';
import { ChangeRequest } from './entities/change-request.entity';

/** Change requests: proposed edits to a space, their numbering, status and listings. */
@Module({
  imports: [TypeOrmModule.forFeature([ChangeRequest]), SpacesModule, UsersModule],
  controllers: [ChangeRequestsController],
  providers: [ChangeRequestsService, ChangeRequestsPresenter],
  exports: [ChangeRequestsService],
})
export class ChangeRequestsModule {}
