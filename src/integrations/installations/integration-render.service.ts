import { Injectable } from '@nestjs/common';
import type { SiteReaderActor, UserActor } from '../../platform/auth/actor';
import { DomainError, forbidden, invalidInput, notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { type AccessContext, PolicyService } from '../../platform/policy/policy.service';
import { IntegrationDispatcher } from '../events/integration-dispatcher';
import type { Integration } from '../entities/integration.entity';
import type { RenderIntegrationUIDto } from './dto/render.dto';
import { InstallationsPresenter } from './installations.presenter';
import { InstallationsRepository } from './installations.repository';

/** What a render answers: GitBook's `ContentKitRenderOutput`, and how long it may be cached. */
export interface RenderOutput {
  output: Record<string, unknown>;
  cacheControl: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Who asks for a render: a member, or a published site's renderer with the site's token. */
export type RenderCaller = UserActor | SiteReaderActor;

/**
 * Renders an integration's ContentKit component (a block in a document, a configuration form)
 * as GitBook does: a `ui_render` event to its script, for the installation the context names
 * (the space's for a document or a space's configuration, the organization's for its own), with
 * that installation in the environment; the answer is checked to be ContentKit's output.
 * A published site's token renders the blocks of its pages only: a read-only `document` in a
 * space its site shows its visitor.
 */
@Injectable()
export class IntegrationRenderService {
  constructor(
    private readonly policy: PolicyService,
    private readonly installations: InstallationsRepository,
    private readonly presenter: InstallationsPresenter,
    private readonly dispatcher: IntegrationDispatcher,
  ) {}

  async render(
    caller: RenderCaller,
    access: ResolvedAccess<Integration>,
    input: RenderIntegrationUIDto,
  ): Promise<RenderOutput> {
    const integration = access.entity!;
    const context = input.context;
    if (caller.kind === 'siteReader') assertReaderRender(context);
    const environment: Record<string, unknown> = {};
    const event: Record<string, unknown> & { type: string } = {
      type: 'ui_render',
      // GitBook's `auth` names a user; a site's visitor is none.
      ...(caller.kind === 'user' ? { auth: { userId: caller.userId } } : {}),
      componentId: input.componentId,
      props: input.props,
      ...(input.state !== undefined ? { state: input.state } : {}),
      context,
      ...(input.action !== undefined ? { action: input.action } : {}),
    };
    let organizationId: string;
    if (context.type === 'document' || context.type === 'configuration_space') {
      const space = await this.space(caller, context.spaceId);
      if (!space) throw notFound('Space');
      if (context.type === 'configuration_space' && space.role !== 'admin') {
        throw forbidden("Only the space's admins configure its integrations.");
      }
      organizationId = space.organizationId;
      const installation = await this.installationIn(integration, organizationId);
      const row = await this.installations.findContent('space', installation.id, context.spaceId);
      if (!row) throw notFound('Integration installation');
      const view = { kind: 'space' as const, integration, installation, row };
      environment.installation = this.presenter.installation({
        integration,
        installation,
        spaces: 0,
      });
      environment.spaceInstallation = this.presenter.spaceInstallation(view);
      event.installationId = installation.id;
      event.spaceId = context.spaceId;
    } else if (context.type === 'configuration_account' && caller.kind === 'user') {
      const organization = await this.policy.resolve(
        caller.userId,
        'organization',
        context.organizationId,
      );
      if (!organization) throw notFound('Organization');
      if (organization.role !== 'admin') {
        throw forbidden("Only the organization's admins configure its integrations.");
      }
      organizationId = organization.id;
      const installation = await this.installationIn(integration, organizationId);
      environment.installation = this.presenter.installation({
        integration,
        installation,
        spaces: 0,
      });
      event.installationId = installation.id;
    } else {
      throw invalidInput(`context.type ${String(context.type)} is not rendered here`);
    }

    const result = await this.dispatcher.dispatch(integration, event, {
      installationId: event.installationId as string,
      organizationId,
      environment,
    });
    const response = result.response;
    if (!response) {
      throw new DomainError(
        'unavailable',
        'IntegrationFailed',
        `${integration.name} did not answer: ${result.error}`,
      );
    }
    const text = response.body.toString('utf8');
    if (response.status === 404) {
      throw new DomainError(
        'not_found',
        'ComponentNotFound',
        `${integration.name}: ${text.slice(0, 300)}`,
      );
    }
    let output: unknown;
    try {
      output = JSON.parse(text);
    } catch {
      output = undefined;
    }
    if (response.status < 200 || response.status >= 300 || !isRenderOutput(output)) {
      throw new DomainError(
        'unavailable',
        'IntegrationFailed',
        `${integration.name} answered ${response.status} without ContentKit's render output.`,
      );
    }
    const cache = /max-age=\d+/.exec(response.headers['cache-control'] ?? '');
    return { output, cacheControl: cache ? `private, ${cache[0]}` : null };
  }

  /** The space a render names, as the caller sees it: a reader, only what its site shows. */
  private space(caller: RenderCaller, spaceId: string) {
    if (caller.kind === 'user') return this.policy.resolve(caller.userId, 'space', spaceId);
    const context: AccessContext = {
      params: { spaceId },
      query: {},
      proceedsIfAbsent: false,
      parent: (resource, id) => this.policy.resolveForSiteReader(caller, resource, id, context),
    };
    return this.policy.resolveForSiteReader(caller, 'space', spaceId, context);
  }

  private async installationIn(integration: Integration, organizationId: string) {
    const installation = await this.installations.findInstallationInOrganization(
      integration.id,
      organizationId,
    );
    if (!installation) throw notFound('Integration installation');
    return installation;
  }
}

/**
 * What a published site's token may render: the blocks of its documents, as a reader sees them
 * (GitBook's renderer asks `editable: false`); never a configuration form.
 */
function assertReaderRender(context: RenderIntegrationUIDto['context']): void {
  if (context.type !== 'document') {
    throw forbidden("A published site's token renders only the blocks of its pages.");
  }
  if (context.editable) {
    throw forbidden(
      "A published site's token renders blocks read-only: context.editable is false.",
    );
  }
}

/** GitBook's `ContentKitRenderOutput`: an element with its state and props, or a completion. */
function isRenderOutput(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  if (value.type === 'complete')
    return value.returnValue === undefined || isObject(value.returnValue);
  return (
    (value.type === undefined || value.type === 'element') &&
    isObject(value.element) &&
    typeof value.element.type === 'string' &&
    isObject(value.state) &&
    isObject(value.props)
  );
}
