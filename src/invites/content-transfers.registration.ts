import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContentTransfers } from '../collections/content-transfers';
import { InvitesRepository } from './invites.repository';

/** Content that leaves its organization loses its invite links: they belong to the old one. */
@Injectable()
export class ContentTransfersRegistration implements OnModuleInit {
  constructor(
    private readonly transfers: ContentTransfers,
    private readonly invites: InvitesRepository,
  ) {}

  onModuleInit(): void {
    this.transfers.register((content, manager) => this.invites.deleteForContent(content, manager));
  }
}
