import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MergedChangeRequests } from '../spaces/content/merged-change-requests';
import { ChangeRequestsPresenter } from './change-requests.presenter';
import type { ChangeRequestResponse } from './dto/change-request.response';
import { ChangeRequest } from './entities/change-request.entity';

/** Shows, on a `merge` revision of space content, the change request it merged. */
@Injectable()
export class MergedChangeRequestsRegistration implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const changeRequest = await this.dataSource.manager.findOne(ChangeRequest, {
      where: { spaceId, revisionMerged: revisionId },
      relations: { creator: true, space: true },
    });
    if (!changeRequest?.space) return undefined;
    return this.presenter.present({
      changeRequest,
      primaryRevision: changeRequest.space.revisionId,
    });
  }
}
