import { All, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { notFound } from '../../platform/errors/domain-error';
import { RawBody } from '../../platform/validation/request-body';
import { IntegrationsRepository } from '../integrations.repository';
import { IntegrationEndpoint } from './integration-endpoint';

/**
 * An integration's public HTTP endpoint (`urls.publicEndpoint`): any request under it reaches
 * the script's `fetch` as GitBook's `fetch` event (IntegrationEndpoint). Where integrations
 * receive webhooks and OAuth callbacks. No token: the integration checks what it receives.
 * Its installations have endpoints of their own (installation-endpoint.controller.ts).
 */
@ApiExcludeController()
@Controller('integrations/:integrationName/integration')
export class IntegrationEndpointController {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly endpoint: IntegrationEndpoint,
  ) {}

  @All(['', '*path'])
  @Access.public()
  @RawBody()
  async relay(
    @Param('integrationName') name: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.endpoint.assertMethod(request, response);
    const integration = await this.integrations.findByName(name);
    if (!integration) throw notFound('Integration');
    await this.endpoint.relay(integration, request, response);
  }
}
