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
  private readonly queues = new Map<string, Promise<void>>();

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
    // One after the other per installation, in the order the changes committed: a space's
    // setup reaches the script before its removal.
    // The event is read now, as the change left things; sent once the ones before it are.
    const prepared = this.prepare(kind, change, ids);
    const previous = this.queues.get(ids.installationId) ?? Promise.resolve();
    const sent = previous
      .then(() => prepared)
      .then(
        (ready) => ready && this.dispatcher.dispatch(ready.integration, ready.event, ready.options),
      )
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.warn(
            `could not send ${kind} ${change} to ${ids.integrationName}: ${String(error)}`,
          ),
      );
    this.queues.set(ids.installationId, sent);
    this.sending.add(sent);
    void sent.finally(() => {
      this.sending.delete(sent);
      if (this.queues.get(ids.installationId) === sent) this.queues.delete(ids.installationId);
    });
  }

  /** Resolves once the events sent so far have been answered (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.sending.size > 0) await Promise.all([...this.sending]);
  }

  private async prepare(kind: InstallationKind, change: InstallationChange, ids: InstallationIds) {
    const integration = await this.integrations.findByName(ids.integrationName);
    if (!integration || integration.id !== ids.integrationId) return null;
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
    if (change !== 'deleted' && event.status === undefined) event.status = 'pending';
    const options = {
      installationId: ids.installationId,
      organizationId: ids.organizationId,
      environment,
    };
    return { integration, event, options };
  }
}
