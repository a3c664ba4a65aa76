import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionAccessResolver } from './collection-access.resolver';
import { CollectionsController } from './collections.controller';
import { CollectionsPresenter } from './collections.presenter';
import { CollectionsService } from './collections.service';
import { Collection } from './entities/collection.entity';
import { ContentGrant } from './entities/content-grant.entity';

/** Collections and content access grants; decides collection access for the policy. */
@Module({
  imports: [TypeOrmModule.forFeature([Collection, ContentGrant])],
  controllers: [CollectionsController],
  providers: [CollectionsService, CollectionsPresenter, CollectionAccessResolver],
  exports: [CollectionsService, CollectionsPresenter, CollectionAccessResolver],
})
export class CollectionsModule {}
