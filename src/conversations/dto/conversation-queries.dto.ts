import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { MaxChars } from '../../platform/validation/chars';

/** `listConversations`' query. */
export class ListConversationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Only conversations of this source (`email` or `integration:<name>:<id>`).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(300)
  source?: string;
}

/** `listConversationsIssues`' query. */
export class ListConversationIssuesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the issues of this cluster.' })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  cluster?: string;

  @ApiPropertyOptional({ description: 'Only the issues of this conversation.' })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  conversation?: string;
}

export const CLUSTER_ORDER_BY = [
  'updatedAt',
  'issues',
  'conversations',
  'tasksTotal',
  'tasksBacklog',
  'tasksStarted',
] as const;
export type ClusterOrderBy = (typeof CLUSTER_ORDER_BY)[number];

export const CLUSTER_STATUSES = ['pending', 'analysing'] as const;

/** `listConversationsIssuesClusters`' query. */
export class ListClustersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    enum: CLUSTER_ORDER_BY,
    default: 'updatedAt',
    description:
      'Bindery has no agent tasks: every `tasks*` count is 0, so those orders sort by id.',
  })
  @IsOptional()
  @IsIn(CLUSTER_ORDER_BY)
  orderBy?: ClusterOrderBy;

  @ApiPropertyOptional({
    enum: CLUSTER_STATUSES,
    description:
      'Clusters being analysed. Bindery writes clusters once their analysis is done, so no ' +
      'cluster is ever `pending` or `analysing`: this filter matches none.',
  })
  @IsOptional()
  @IsIn(CLUSTER_STATUSES)
  status?: (typeof CLUSTER_STATUSES)[number];
}
