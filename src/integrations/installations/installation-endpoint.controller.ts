import { All, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { notFound } from '../../platform/errors/domain-error';
import { RawBody } from '../../platform/validation/request-body';
import type { Integration } from '../entities/integration.entity';
import { type EndpointTarget, IntegrationEndpoint } from '../events/integration-endpoint';
import { IntegrationsRepository } from '../integrations.repository';
import { InstallationsPresenter } from './installations.presenter';
import { type ContentKind, InstallationsRepository } from './installations.repository';

const INSTALLATION = 'integrations/:integrationName/installations/:installationId';

/**
 * The public HTTP endpoints of an integration's installations (their `urls.publicEndpoint`):
 * the organization's installation, and its installations on spaces and sites. A request under
 * one reaches the script's `fetch` as GitBook's `fetch` event naming the installation (and the
 * space or site), with the installation (and the space or site installation) and its token in
 * the environment: where an integration receives the webhooks of the outside service it
 * connects to one installation (a repository's pushes to a space, say). No token: the
 * integration checks what it receives. Installations not yet configured (`pending`) receive
 * them too: their setup (an OAuth callback) comes through here.
 */
@ApiExcludeController()
@Controller(INSTALLATION)
export class InstallationEndpointController {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly presenter: InstallationsPresenter,
    private readonly endpoint: IntegrationEndpoint,
  ) {}

  @All(['integration', 'integration/*path'])
  @Access.public()
  @RawBody()
  async installation(
    @Param('integrationName') name: string,
    @Param('installationId') installationId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.endpoint.assertMethod(request, response);
    const { integration, target } = await this.target(name, installationId);
    await this.endpoint.relay(integration, request, response, target);
  }

  @All(['spaces/:spaceId/integration', 'spaces/:spaceId/integration/*path'])
  @Access.public()
  @RawBody()
  async space(
    @Param('integrationName') name: string,
    @Param('installationId') installationId: string,
    @Param('spaceId') spaceId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.endpoint.assertMethod(request, response);
    const { integration, target } = await this.target(name, installationId, 'space', spaceId);
    await this.endpoint.relay(integration, request, response, target);
  }

  @All(['sites/:siteId/integration', 'sites/:siteId/integration/*path'])
  @Access.public()
  @RawBody()
  async site(
    @Param('integrationName') name: string,
    @Param('installationId') installationId: string,
    @Param('siteId') siteId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.endpoint.assertMethod(request, response);
    const { integration, target } = await this.target(name, installationId, 'site', siteId);
    await this.endpoint.relay(integration, request, response, target);
  }

  /** The installation the URL names (404 unless it exists), as its `fetch` event carries it. */
  private async target(
    name: string,
    installationId: string,
    kind?: ContentKind,
    contentId?: string,
  ): Promise<{ integration: Integration; target: EndpointTarget }> {
    const integration = await this.integrations.findByName(name);
    if (!integration) throw notFound('Integration');
    const installation = await this.installations.findInstallation(integration.id, installationId);
    if (!installation) throw notFound('Integration installation');
    const environment: Record<string, unknown> = {
      installation: this.presenter.installation({ integration, installation, spaces: 0 }),
    };
    if (kind && contentId) {
      const row = await this.installations.findContent(kind, installation.id, contentId);
      if (!row) throw notFound(`Integration ${kind} installation`);
      const view = { kind, integration, installation, row };
      if (kind === 'space') environment.spaceInstallation = this.presenter.spaceInstallation(view);
      else environment.siteInstallation = this.presenter.siteInstallation(view);
    }
    return {
      integration,
      target: {
        event: {
          installationId,
          ...(kind === 'space' ? { spaceId: contentId } : {}),
          ...(kind === 'site' ? { siteId: contentId } : {}),
        },
        options: {
          installationId,
          organizationId: installation.organizationId,
          environment,
        },
      },
    };
  }
}
