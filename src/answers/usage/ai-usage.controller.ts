import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import type { ResolvedAccess } from '../../platform/policy/access';
import { OrganizationAIUsageQueryDto } from '../dto/ask-in-organization.dto';
import { OrganizationAIUsageResponse } from '../dto/organization-answer.response';
import { AnswerLimits } from './answer-limits.service';

/** What an organization's answers used of the model: GitBook's AI usage. */
@Controller('orgs/:organizationId/billing/ai-usage')
export class AiUsageController {
  constructor(private readonly limits: AnswerLimits) {}

  @Get()
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'getOrganizationAIUsage',
    summary: 'Get AI credit usage by AI feature and time period',
    description:
      'The tokens the organization’s answers used (a credit is a token, as the model reported ' +
      'it, else 4 characters), by UTC calendar bucket (`interval`, a day by default; weeks ' +
      'start on Monday) and feature: `site-ask`, `organization-ask`, `recommended-questions`. ' +
      'Every bucket of the range is listed, empty ones too; `to` is capped at now. The current ' +
      'month’s total is what AI_MONTHLY_TOKEN_BUDGET limits. Organization admins only.',
  })
  @ApiOkResponse({ type: OrganizationAIUsageResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'Missing or invalid `from`, `to` or `interval`; `from` not before `to`, or over two years ago.',
  })
  usage(
    @Granted() access: ResolvedAccess,
    @Query() query: OrganizationAIUsageQueryDto,
  ): Promise<OrganizationAIUsageResponse> {
    return this.limits.usage(access.organizationId, query);
  }
}
