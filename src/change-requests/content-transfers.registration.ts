import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContentTransfers } from '../collections/content-transfers';
import { ChangeRequestsRepository } from './change-requests.repository';

/** Change requests follow their spaces to the organization a transfer gives them to. */
@Injectable()
export class ChangeRequestTransfersRegistration implements OnModuleInit {
  constructor(
    private readonly transfers: ContentTransfers,
    private readonly changeRequests: ChangeRequestsRepository,
  ) {}

  onModuleInit(): void {
    this.transfers.register(({ spaceIds, organizationId }, manager) =>
      this.changeRequests.moveToOrganization(spaceIds, organizationId, manager),
    );
  }
}
