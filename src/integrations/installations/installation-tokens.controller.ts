import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { IntegrationTokens } from '../../platform/auth/integration-tokens';
import type { InstallationAccess } from './installation-access.policy';

/** GitBook's `APITemporaryToken`. */
export class APITemporaryTokenResponse {
  @ApiProperty({ description: 'Temporary access token to authenticate with the API.' })
  token!: string;
}

/**
 * Tokens of an integration's installations, which its script asks for with the integration's
 * own token (an event's `environment.apiTokens.integration`) to act for one installation
 * outside an event about it (a task, a call from its own system).
 */
@Controller('integrations/:integrationName/installations/:installationId')
export class InstallationTokensController {
  constructor(private readonly tokens: IntegrationTokens) {}

  @Post('tokens')
  @HttpCode(200)
  @Access('integrationInstallation', 'view', {
    param: 'installationId',
    integrations: { integration: true, only: true },
  })
  @ApiOperation({
    operationId: 'createIntegrationInstallationToken',
    summary: 'Create a token for an installation',
    description:
      "With the integration's own token only. The token lives an hour and reaches what the " +
      'installation is installed on, within the scopes the integration holds now; it stops ' +
      'working at once when the installation is uninstalled.',
  })
  @ApiOkResponse({ type: APITemporaryTokenResponse })
  create(@Granted() access: InstallationAccess): APITemporaryTokenResponse {
    const { integration, installation } = access.entity;
    const { token } = this.tokens.sign({
      kind: 'installation',
      integration: integration.id,
      installation: installation.id,
      organization: installation.organizationId,
      scopes: [...integration.scopes],
    });
    return { token };
  }
}
