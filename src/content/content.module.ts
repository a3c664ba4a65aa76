import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContentEngine } from './content-engine';
import { ContentObject } from './entities/content-object.entity';
import { Revision } from './entities/revision.entity';

/** The content engine: revisions and the immutable objects they are made of. */
@Module({
  imports: [TypeOrmModule.forFeature([ContentObject, Revision])],
  providers: [ContentEngine],
  exports: [ContentEngine],
})
export class ContentModule {}
