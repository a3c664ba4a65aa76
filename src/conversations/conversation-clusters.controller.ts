import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, Granted } from '../platform/auth/access.decorator';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import { ConversationClustersService } from './conversation-clusters.service';
import { CONVERSATIONS_READ } from './conversations-access';
import { ConversationsPresenter } from './conversations.presenter';
import { ListClustersQueryDto } from './dto/conversation-queries.dto';
import { ConversationsIssuesClusterResponse } from './dto/conversation.response';

const PULSE =
  '`weeklyPulse` counts the issues of each of the last 13 weeks (Monday to Sunday, UTC), oldest ' +
  'first, by the time of their conversation.';

@ApiTags('conversations')
@Controller('orgs/:organizationId/conversations-clusters')
export class ConversationClustersController {
  constructor(
    private readonly clusters: ConversationClustersService,
    private readonly presenter: ConversationsPresenter,
  ) {}

  @Get()
  @Access('organization', CONVERSATIONS_READ)
  @ApiOperation({
    operationId: 'listConversationsIssuesClusters',
    summary: 'List conversations issues clusters',
    description: PULSE,
  })
  @ApiOkResponse({ type: PageOf(ConversationsIssuesClusterResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: ListClustersQueryDto,
  ): Promise<Page<ConversationsIssuesClusterResponse>> {
    const page = await this.clusters.list(organization.id, query);
    return mapPage(page, ({ cluster, weeklyPulse }) =>
      this.presenter.cluster(cluster, weeklyPulse),
    );
  }

  @Get(':clusterId')
  @Access('organization', CONVERSATIONS_READ)
  @ApiOperation({
    operationId: 'getConversationsIssuesCluster',
    summary: 'Get a conversations issues cluster by its identifier',
    description: PULSE,
  })
  @ApiOkResponse({ type: ConversationsIssuesClusterResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('clusterId') clusterId: string,
  ): Promise<ConversationsIssuesClusterResponse> {
    const { cluster, weeklyPulse } = await this.clusters.get(organization.id, clusterId);
    return this.presenter.cluster(cluster, weeklyPulse);
  }
}
