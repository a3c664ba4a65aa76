import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventOutbox } from '../../platform/events/event-outbox';
import type { OutboxEvent } from '../../platform/events/outbox-event.entity';
import { JobsService } from '../../platform/jobs/jobs.service';
import type { Integration } from '../entities/integration.entity';
import { IntegrationDispatcher } from '../events/integration-dispatcher';
import type { IntegrationInstallation } from './entities/integration-installation.entity';
import { configurationStatus } from './installation-configuration';
import { statusOf } from './installation-views';
import { InstallationsPresenter } from './installations.presenter';
import {
  type ContentInstallation,
  type ContentKind,
  InstallationsRepository,
} from './installations.repository';

const QUEUE = 'integration-content-events';

/**
 * The events of GitBook's `Event` that Bindery's outbox records about a space or a site, with
 * the fields GitBook's schema gives each (the outbox's own, such as `actor`, left out).
 */
const FORWARDED: Record<string, { kind: ContentKind; fields: string[] }> = {
  space_content_updated: { kind: 'space', fields: ['spaceId', 'revisionId', 'updatedBy'] },
  space_visibility_updated: {
    kind: 'space',
    fields: ['spaceId', 'previousVisibility', 'visibility'],
  },
  space_gitsync_started: { kind: 'space', fields: ['spaceId', 'revisionId', 'commitId'] },
  space_gitsync_completed: {
    kind: 'space',
    fields: ['spaceId', 'state', 'revisionId', 'commitId'],
  },
  page_feedback: { kind: 'site', fields: ['siteId', 'spaceId', 'pageId', 'feedback', 'visitor'] },
};

interface ContentEventJob {
  organizationId: string;
  kind: ContentKind;
  contentId: string;
  event: Record<string, unknown> & { type: string };
}

/**
 * What happens to the spaces and sites an integration is installed on, sent to its script as
 * GitBook sends it: `space_content_updated`, `space_visibility_updated`, `space_gitsync_started`
 * and `…_completed` for a space, `page_feedback` for a site, to every active installation on
 * it (and those selecting all of the organization's), with the installation, the space or site
 * installation and its token in the environment. Queued in the change's transaction (only when
 * the organization has an installation at all), sent after it commits; each is recorded with
 * the integration's events.
 */
@Injectable()
export class InstallationContentEvents implements OnModuleInit {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly jobs: JobsService,
    private readonly installations: InstallationsRepository,
    private readonly presenter: InstallationsPresenter,
    private readonly dispatcher: IntegrationDispatcher,
  ) {}

  onModuleInit(): void {
    this.jobs.define<ContentEventJob>(QUEUE, (job) => this.send(job), { concurrency: 2 });
    this.outbox.listen((manager, events) => this.queue(manager, events));
  }

  private async queue(manager: EntityManager, events: OutboxEvent[]): Promise<void> {
    const forwarded = events.filter((event) => FORWARDED[event.type]);
    if (forwarded.length === 0) return;
    const organizations = new Map<string, boolean>();
    for (const event of forwarded) {
      const { kind, fields } = FORWARDED[event.type];
      const contentId = kind === 'space' ? event.spaceId : event.siteId;
      if (!contentId) continue;
      if (!organizations.has(event.organizationId)) {
        organizations.set(
          event.organizationId,
          await this.installations.anyInOrganization(event.organizationId, manager),
        );
      }
      if (!organizations.get(event.organizationId)) continue;
      const payload = event.payload;
      const picked = Object.fromEntries(
        fields.filter((field) => payload[field] !== undefined).map((f) => [f, payload[f]]),
      );
      if (Array.isArray(picked.updatedBy)) picked.updatedBy = picked.updatedBy.map(withoutEmail);
      await this.jobs.send<ContentEventJob>(
        QUEUE,
        {
          organizationId: event.organizationId,
          kind,
          contentId,
          event: { type: event.type, ...picked },
        },
        { manager, retryLimit: 0 },
      );
    }
  }

  private async send({ organizationId, kind, contentId, event }: ContentEventJob): Promise<void> {
    const targets: {
      integration: Integration;
      installation: IntegrationInstallation;
      row: ContentInstallation | null;
    }[] = (await this.installations.installedOn(kind, contentId))
      .filter((view) => statusOf(view) === 'active')
      .map(({ integration, installation, row }) => ({ integration, installation, row }));
    for (const installation of await this.installations.selectingAll(kind, organizationId)) {
      if (targets.some((target) => target.installation.id === installation.id)) continue;
      const integration = installation.integration!;
      if (configurationStatus(integration, 'account', installation.configuration) !== 'active')
        continue;
      targets.push({ integration, installation, row: null });
    }
    for (const { integration, installation, row } of targets) {
      const environment: Record<string, unknown> = {
        installation: this.presenter.installation({ integration, installation, spaces: 0 }),
      };
      if (row) {
        const view = { kind, integration, installation, row };
        if (kind === 'space')
          environment.spaceInstallation = this.presenter.spaceInstallation(view);
        else environment.siteInstallation = this.presenter.siteInstallation(view);
      }
      await this.dispatcher.dispatch(
        integration,
        { ...event, installationId: installation.id },
        { installationId: installation.id, organizationId, environment },
      );
    }
  }
}

/**
 * A user as an integration hears of them: without their email (GitBook's `User` has it only
 * optionally), which an integration, possibly another organization's, has no need of and its
 * developers would read in its events.
 */
function withoutEmail(user: unknown): unknown {
  if (typeof user !== 'object' || user === null) return user;
  const { email: _email, ...rest } = user as Record<string, unknown>;
  return rest;
}
