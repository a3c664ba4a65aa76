import { Injectable, Logger } from '@nestjs/common';
import { IntegrationDispatcher } from '../events/integration-dispatcher';
import { IntegrationsRepository } from '../integrations.repository';
import { configurationStatus } from './installation-configuration';
import { InstallationsPresenter } from './installations.presenter';
import { InstallationsRepository } from './installations.repository';

/** Which installation changed: an organization's, or one on a space or a site below it. */
export type InstallationKind = 'installation' | 'space' | 'site';
export type InstallationChange = 'created' | 'updated' | 'deleted';

/** The ids of the installation that changed. */
export interface InstallationIds {
  integrationId: string;
  integrationName: string;
  installationId: string;
  organizationId: string;
  /** The space or site of a space or site installation. */
  spaceId?: string;
  siteId?: string;
}

const EVENT_TYPES: Record<InstallationKind, Record<'setup' | 'deleted', string>> = {
  installation: { setup: 'installation_setup', deleted: 'installation_deleted' },
  space: { setup: 'space_installation_setup', deleted: 'space_installation_deleted' },
  site: { setup: 'site_installation_setup', deleted: 'site_installation_deleted' },
};

/**
 * Where the integration hears of its installations: once a create, update or delete has
 * committed, GitBook's event (`installation_setup`, `space_installation_setup`,
 * `site_installation_setup` when one is made or changed; `…_deleted` when removed) goes to its
 * script, with the installation in its environment, in the background: the change has committed
 * whatever the integration makes of it, and its answer is recorded with the event.
 */
@Injectable()
export class IntegrationInstallationEvents {
  private readonly logger = new Logger(IntegrationInstallationEvents.name);
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly dispatcher: IntegrationDispatcher,
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly presenter: InstallationsPresenter,
  ) {}

  installationChanged(
    kind: InstallationKind,
    change: InstallationChange,
    ids: InstallationIds,
  ): void {
    const sent = this.send(kind, change, ids).catch((error: unknown) =>
      this.logger.warn(
        `could not send ${kind} ${change} to ${ids.integrationName}: ${String(error)}`,
      ),
    );
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  /** Resolves once the events sent so far have been answered (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.sending.size > 0) await Promise.all([...this.sending]);
  }

  private async send(kind: InstallationKind, change: InstallationChange, ids: InstallationIds) {
    const integration = await this.integrations.findByName(ids.integrationName);
    if (!integration || integration.id !== ids.integrationId) return;
    const type = EVENT_TYPES[kind][change === 'deleted' ? 'deleted' : 'setup'];
    const installation =
      change === 'deleted' && kind === 'installation'
        ? null
        : await this.installations.findInstallation(integration.id, ids.installationId);
    const environment: Record<string, unknown> = {};
    const event: Record<string, unknown> & { type: string } = {
      type,
      installationId: ids.installationId,
    };
    // What was there before is gone with the row; GitBook's deleted events require the field.
    if (change === 'deleted') event.previous = {};
    if (installation) {
      environment.installation = this.presenter.installation({
        integration,
        installation,
        spaces: 0,
      });
      if (kind === 'installation') {
        event.status = configurationStatus(integration, 'account', installation.configuration);
      }
    }
    if (kind !== 'installation') {
      const contentId = kind === 'space' ? ids.spaceId! : ids.siteId!;
      event[kind === 'space' ? 'spaceId' : 'siteId'] = contentId;
      const row =
        installation && change !== 'deleted'
          ? await this.installations.findContent(kind, installation.id, contentId)
          : null;
      if (installation && row) {
        const view = { kind, integration, installation, row };
        if (kind === 'space')
          environment.spaceInstallation = this.presenter.spaceInstallation(view);
        else environment.siteInstallation = this.presenter.siteInstallation(view);
        event.status = configurationStatus(integration, kind, row.configuration);
      }
    }
    await this.dispatcher.dispatch(integration, event, {
      installationId: ids.installationId,
      organizationId: ids.organizationId,
      environment,
    });
  }
}
