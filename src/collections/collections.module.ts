import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionAccessResolver } from './collection-access.resolver';
import { CollectionSpaces } from './collection-spaces';
import { CollectionsController } from './collections.controller';
import { CollectionsPresenter } from './collections.presenter';
import { CollectionsRepository } from './collections.repository';
import { ContentTransfers } from './content-transfers';
import { CollectionsService } from './collections.service';
import { ContentPlacement } from './content-placement';
import { ContentTree } from './content-tree';
import { Collection } from './entities/collection.entity';
import { ContentGrant } from './entities/content-grant.entity';
import { MembersModule } from '../orgs/members/members.module';
import { TeamsModule } from '../orgs/teams/teams.module';
import { UsersModule } from '../users/users.module';
import { ContentGrantsPresenter } from './grants/content-grants.presenter';
import { ContentGrantsRepository } from './grants/content-grants.repository';
import { ContentGrantsService } from './grants/content-grants.service';
import { CollectionPermissionsController } from './grants/collection-permissions.controller';

/**
 * Collections and the access grants on collections and spaces (ContentGrantsService, shared
 * with SpacesModule); decides collection access for the policy.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Collection, ContentGrant]),
    UsersModule,
    TeamsModule,
    MembersModule,
  ],
  controllers: [CollectionsController, CollectionPermissionsController],
  providers: [
    CollectionsService,
    CollectionsPresenter,
    CollectionAccessResolver,
    ContentTree,
    ContentGrantsService,
    ContentGrantsPresenter,
    CollectionsRepository,
    ContentGrantsRepository,
    CollectionSpaces,
    ContentTransfers,
    ContentPlacement,
  ],
  exports: [
    CollectionsService,
    CollectionsPresenter,
    CollectionAccessResolver,
    ContentTree,
    ContentGrantsService,
    ContentGrantsPresenter,
    CollectionsRepository,
    ContentGrantsRepository,
    CollectionSpaces,
    ContentTransfers,
    ContentPlacement,
  ],
})
export class CollectionsModule {}
