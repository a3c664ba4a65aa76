import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ApplySpaceTemplateDto } from './dto/apply-space-template.dto';
import { TemplateApplication } from './template-application';
import { SPACE_TEMPLATES_DESCRIPTION } from '../../content-engine/writes/space-templates';

@Controller()
export class SpaceTemplatesController {
  constructor(private readonly templates: TemplateApplication) {}

  @Post('spaces/:spaceId/content/template')
  @HttpCode(201)
  @Access('space', 'edit')
  @ApiOperation({
    operationId: 'applyTemplateToSpace',
    summary: 'Apply a template to a space',
    description:
      "The template's pages replace the pages of the space's primary content, as one new " +
      `revision. ${SPACE_TEMPLATES_DESCRIPTION} With \`changeRequestId\` (its id or its number in ` +
      "the space), the template's pages replace the change request's pages instead, as one new " +
      'revision on its head; the primary content does not move.',
  })
  @ApiCreatedResponse({ description: 'Template applied to space.' })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'Invalid input, an unknown template, or an api-reference template whose specification is ' +
      'unknown, not processed yet or without operations, webhooks and schemas.',
  })
  @ApiConflictResponse({
    type: ErrorBody,
    description:
      'The space is locked, the change request is merged or archived, or the content moved ' +
      'during the write (retry).',
  })
  async apply(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
    @Body() body: ApplySpaceTemplateDto,
  ): Promise<void> {
    await this.templates.applyToSpace(access.entity, actor.userId, body);
  }
}
