import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContentInvites } from '../collections/content-invites';
import { InvitesRepository } from './invites.repository';

/** Supplies collections and spaces (layers below) with the removal of their invite links. */
@Injectable()
export class ContentInvitesRegistration implements OnModuleInit {
  constructor(
    private readonly contentInvites: ContentInvites,
    private readonly invites: InvitesRepository,
  ) {}

  onModuleInit(): void {
    this.contentInvites.register((content, manager) =>
      this.invites.deleteForContent(content, manager),
    );
  }
}
