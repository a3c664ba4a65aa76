import { Injectable, OnModuleInit } from '@nestjs/common';
import { CollectionSpaces } from '../collections/collection-spaces';
import { SpacesRepository } from './spaces.repository';

/** Supplies collections (a layer below) with the writes of space rows they make. */
@Injectable()
export class CollectionSpacesRegistration implements OnModuleInit {
  constructor(
    private readonly collectionSpaces: CollectionSpaces,
    private readonly spaces: SpacesRepository,
  ) {}

  onModuleInit(): void {
    this.collectionSpaces.register(this.spaces);
  }
}
