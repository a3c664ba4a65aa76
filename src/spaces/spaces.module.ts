import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { MembersModule } from '../orgs/members/members.module';
import { UsersModule } from '../users/users.module';
import { CollectionSpacesRegistration } from './collection-spaces.registration';
import { Space } from './entities/space.entity';
import { SpacePermissionsController } from './grants/space-permissions.controller';
import { SpaceAccessResolver } from './space-access.resolver';
import { SpaceContentModule } from './space-content.module';
import { SpaceEvents } from './space-events';
import { SpaceLifecycle } from './space-lifecycle.service';
import { SpaceTrash } from './space-trash';
import { SpacesController } from './spaces.controller';
import { SpacesPresenter } from './spaces.presenter';
import { SpacesRepository } from './spaces.repository';
import { SpacesService } from './spaces.service';

/**
 * Spaces: the content tree's leaves, their settings and trash; decides space access. Their
 * content's routes come with SpaceContentModule, which it exports with the content engine.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Space]),
    CollectionsModule,
    ContentEngineModule,
    SpaceContentModule,
    MembersModule,
    UsersModule,
  ],
  controllers: [SpacesController, SpacePermissionsController],
  providers: [
    SpacesService,
    SpaceLifecycle,
    SpacesPresenter,
    SpaceAccessResolver,
    SpaceTrash,
    SpacesRepository,
    CollectionSpacesRegistration,
    SpaceEvents,
  ],
  exports: [
    SpacesService,
    SpaceLifecycle,
    SpacesPresenter,
    SpaceAccessResolver,
    SpaceContentModule,
    SpacesRepository,
  ],
})
export class SpacesModule {}
