import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionAccessResolver } from './collection-access.resolver';
import { CollectionsController } from './collections.controller';
import { CollectionsPresenter } from './collections.presenter';
import { CollectionsService } from './collections.service';
import { ContentTree } from './content-tree';
import { Collection } from './entities/collection.entity';
import { ContentGrant } from './entities/content-grant.entity';
import { TeamsModule } from '../orgs/teams/teams.module';
import { UsersModule } from '../users/users.module';
import { CollectionPermissionsController } from './permissions/collection-permissions.controller';
import { CollectionPermissionsPresenter } from './permissions/collection-permissions.presenter';
import { CollectionPermissionsService } from './permissions/collection-permissions.service';

/** Collections and content access grants; decides collection access for the policy. */
@Module({
  imports: [TypeOrmModule.forFeature([Collection, ContentGrant]), UsersModule, TeamsModule],
  controllers: [CollectionsController, CollectionPermissionsController],
  providers: [
    CollectionsService,
    CollectionsPresenter,
    CollectionAccessResolver,
    ContentTree,
    CollectionPermissionsService,
    CollectionPermissionsPresenter,
  ],
  exports: [CollectionsService, CollectionsPresenter, CollectionAccessResolver, ContentTree],
})
export class CollectionsModule {}
