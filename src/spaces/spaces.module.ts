import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { ContentModule } from '../content-engine/content.module';
import { Space } from './entities/space.entity';
import { SpacePermissionsController } from './permissions/space-permissions.controller';
import { SpaceAccessResolver } from './space-access.resolver';
import { SpaceTrash } from './space-trash';
import { SpacesController } from './spaces.controller';
import { SpacesPresenter } from './spaces.presenter';
import { SpacesService } from './spaces.service';

/** Spaces: the content tree's leaves, their settings and trash; decides space access. */
@Module({
  imports: [TypeOrmModule.forFeature([Space]), CollectionsModule, ContentModule],
  controllers: [SpacesController, SpacePermissionsController],
  providers: [SpacesService, SpacesPresenter, SpaceAccessResolver, SpaceTrash],
  exports: [SpacesService, SpacesPresenter, SpaceAccessResolver],
})
export class SpacesModule {}
