import { Injectable, OnModuleInit } from '@nestjs/common';
import { MergedChangeRequests } from '../spaces/content/merged-change-requests';
import { ChangeRequestsPresenter } from './change-requests.presenter';
import { ChangeRequestsRepository } from './change-requests.repository';
import type { ChangeRequestResponse } from './dto/change-request.response';

/** Shows, on a `merge` revision of space content, the change request it merged. */
@Injectable()
export class MergedChangeRequestsRegistration implements OnModuleInit {
  constructor(
    private readonly changeRequests: ChangeRequestsRepository,
    private readonly mergedChangeRequests: MergedChangeRequests,
    private readonly presenter: ChangeRequestsPresenter,
  ) {}

  onModuleInit(): void {
    this.mergedChangeRequests.register((spaceId, revisionId) => this.find(spaceId, revisionId));
  }

  /** The change request whose `revision_merged` is `revisionId`. */
  private async find(
    spaceId: string,
    revisionId: string,
  ): Promise<ChangeRequestResponse | undefined> {
    const changeRequest = await this.changeRequests.findMergedAs(spaceId, revisionId);
    if (!changeRequest?.space) return undefined;
    return this.presenter.present({
      changeRequest,
      primaryRevision: changeRequest.space.revisionId,
    });
  }
}
