import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Organization } from '../../orgs/entities/organization.entity';
import { organizationPermissions } from '../../orgs/organization-permissions';
import { OrganizationsRepository } from '../../orgs/organizations.repository';
import type { IntegrationActor, UserActor } from '../../platform/auth/actor';
import { Clock } from '../../platform/clock/clock';
import { DomainError, forbidden, invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { PageRequest } from '../../platform/pagination/keyset';
import { mapPage, type Page } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import { PolicyService } from '../../platform/policy/policy.service';
import { ROLES } from '../../platform/policy/roles';
import { SitesService } from '../../sites/sites.service';
import type { Space } from '../../spaces/entities/space.entity';
import { SpaceAccessResolver } from '../../spaces/space-access.resolver';
import { spacePermissions } from '../../spaces/space-permissions';
import type { ListIntegrationsQueryDto } from '../dto/publish-integration.dto';
import type { Integration } from '../entities/integration.entity';
import type { IntegrationView } from '../integrations.service';
import type {
  InstallIntegrationDto,
  IntegrationsStatusQueryDto,
  UpdateContentInstallationDto,
  UpdateIntegrationInstallationDto,
} from './dto/installation.dto';
import {
  IntegrationInstallation,
  type InstallationStatus,
} from './entities/integration-installation.entity';
import { IntegrationSiteInstallation } from './entities/integration-site-installation.entity';
import { IntegrationSpaceInstallation } from './entities/integration-space-installation.entity';
import {
  type InstallationAccess,
  organizationRefusal,
  type SiteInstallationAccess,
  SPACE_INSTALL_REFUSAL,
  type SpaceInstallationAccess,
} from './installation-access.policy';
import { configurationStatus, validateConfiguration } from './installation-configuration';
import { IntegrationInstallationEvents, type InstallationIds } from './installation-events';
import {
  contentIdOf,
  type ContentInstallationView,
  type InstallationView,
  type InstalledIntegrationView,
  type SiteScriptView,
  statusOf,
} from './installation-views';
import {
  type ContentInstallation,
  type ContentInstallationRow,
  type ContentKind,
  InstallationsRepository,
  type OrganizationReach,
} from './installations.repository';

/** GitBook's scope that lets an installation inject a script in a site's pages. */
export const SCRIPT_SCOPE = 'site:script:inject';

const alreadyInstalled = (what: string) =>
  new DomainError(
    'conflict',
    'IntegrationAlreadyInstalled',
    `The integration is already installed on ${what}.`,
  );

/** The roles whose organization permissions list installations. */
const LISTING_ROLES = ROLES.filter((role) => organizationPermissions(role).listInstallations);

/**
 * Installing integrations: on an organization (at most once per integration), and below that
 * installation on its spaces and sites, with their configurations checked against the
 * integration's schemas. The guard has decided the route's resource; a second one (the
 * organization of an install, the space or site of a space or site install) is checked here.
 * The integration hears of every change through IntegrationInstallationEvents, after commit.
 */
@Injectable()
export class InstallationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly installations: InstallationsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly sites: SitesService,
    private readonly spaces: SpaceAccessResolver,
    private readonly policy: PolicyService,
    private readonly events: IntegrationInstallationEvents,
    private readonly clock: Clock,
  ) {}

  /**
   * Installs the integration on `input.organization`: the caller needs the organization's
   * `installIntegration` (its admins); a private integration installs only in the organization
   * that owns it. It starts with an empty configuration (pending while its integration requires
   * one), selecting no spaces or sites. 409 when it is installed there already.
   */
  async install(
    user: UserActor,
    integrationName: string,
    input: InstallIntegrationDto,
  ): Promise<InstallationView> {
    const integration = await this.visibleIntegration(user, integrationName);
    const organization = await this.policy.resolve(user.userId, 'organization', input.organization);
    if (!organization) throw notFound('Organization');
    const refusal = organizationRefusal(organization.role, 'installIntegration');
    if (refusal) throw refusal;
    if (integration.visibility === 'private' && integration.organizationId !== organization.id) {
      throw forbidden(
        `${integration.name} is private: it installs only in the organization that owns it.`,
      );
    }
    const now = this.clock.now();
    const installation = Object.assign(new IntegrationInstallation(), {
      id: newId(),
      integrationId: integration.id,
      organizationId: organization.id,
      configuration: {},
      spaceSelection: 'selected',
      siteSelection: 'selected',
      externalIds: [],
      createdAt: now,
      updatedAt: now,
    } satisfies IntegrationInstallation);
    await this.dataSource.transaction(async (manager) => {
      if (
        await this.installations.findInstallationInOrganization(
          integration.id,
          organization.id,
          manager,
        )
      ) {
        throw alreadyInstalled('this organization');
      }
      await this.installations.insertInstallation(installation, manager);
    });
    this.events.installationChanged('installation', 'created', this.ids(integration, installation));
    return { integration, installation, spaces: 0 };
  }

  async view(access: InstallationAccess): Promise<InstallationView> {
    const { integration, installation } = access.entity;
    const counts = await this.installations.countSpaces([installation.id]);
    return { integration, installation, spaces: counts.get(installation.id) ?? 0 };
  }

  /** Changes the fields given; a configuration replaces the one before, checked first. */
  async update(
    access: InstallationAccess,
    input: UpdateIntegrationInstallationDto,
  ): Promise<InstallationView> {
    const { integration, installation } = access.entity;
    if (input.configuration) validateConfiguration(integration, 'account', input.configuration);
    const changes: Partial<IntegrationInstallation> = {
      ...(input.configuration ? { configuration: input.configuration } : {}),
      ...(input.externalIds ? { externalIds: [...new Set(input.externalIds)] } : {}),
      ...(input.space_selection ? { spaceSelection: input.space_selection } : {}),
      ...(input.site_selection ? { siteSelection: input.site_selection } : {}),
      updatedAt: this.clock.now(),
    };
    await this.dataSource.transaction((manager) =>
      this.installations.updateInstallation(installation.id, changes, manager),
    );
    const updated = Object.assign(new IntegrationInstallation(), installation, changes);
    this.events.installationChanged('installation', 'updated', this.ids(integration, updated));
    return this.view({ ...access, entity: { ...access.entity, installation: updated } });
  }

  /** Uninstalls it, from its spaces and sites too; false when there was none the caller sees. */
  async uninstall(access: InstallationAccess | null): Promise<boolean> {
    if (!access) return false;
    const { integration, installation } = access.entity;
    const deleted = await this.dataSource.transaction((manager) =>
      this.installations.deleteInstallation(installation.id, manager),
    );
    if (deleted) {
      this.events.installationChanged(
        'installation',
        'deleted',
        this.ids(integration, installation),
      );
    }
    return deleted;
  }

  /**
   * The integration's installations in the organizations where the caller may list
   * installations (`listInstallations`: their admins); GitBook answers the integration's token
   * every installation, which a member of one organization must not see of another.
   */
  async list(
    caller: UserActor | IntegrationActor,
    access: ResolvedAccess<Integration>,
    externalId: string | undefined,
    request: PageRequest,
  ): Promise<Page<InstallationView>> {
    const integration = access.entity!;
    const page = await this.installations.pageInstallations(
      integration.id,
      this.reachOf(caller),
      externalId,
      request,
    );
    const counts = await this.installations.countSpaces(page.items.map((item) => item.id));
    return mapPage(page, (installation) => ({
      integration,
      installation,
      spaces: counts.get(installation.id) ?? 0,
    }));
  }

  /**
   * Installs the organization's installation on one of its spaces: the caller needs the space's
   * `installIntegration` (its admins); 404 for a space it does not see or of another
   * organization, 400 when the integration is not for spaces, 409 when it is there already.
   */
  async installOnSpace(
    user: UserActor,
    access: InstallationAccess,
    spaceId: string,
  ): Promise<ContentInstallationView> {
    const { integration, installation } = access.entity;
    const space = (await this.policy.resolve(
      user.userId,
      'space',
      spaceId,
    )) as ResolvedAccess<Space> | null;
    if (!space || space.organizationId !== installation.organizationId) throw notFound('Space');
    if (!spacePermissions(space.role).installIntegration) throw forbidden(SPACE_INSTALL_REFUSAL);
    this.assertTarget(integration, 'space');
    const row = await this.insertContent('space', access, spaceId);
    return {
      kind: 'space',
      integration,
      installation,
      row,
      space: { space: space.entity!, role: space.role },
    };
  }

  /**
   * Installs the organization's installation on one of its sites (the route needed the
   * organization's `installIntegration`, which is the site's): 404 for a site of another
   * organization, 400 when the integration is not for sites, 409 when it is there already.
   */
  async installOnSite(
    access: InstallationAccess,
    siteId: string,
  ): Promise<ContentInstallationView> {
    const { integration, installation } = access.entity;
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      installation.organizationId,
      siteId,
    );
    this.assertTarget(integration, 'site');
    const row = await this.insertContent('site', access, siteId);
    return {
      kind: 'site',
      integration,
      installation,
      row,
      site: {
        site: await this.sites.withCount(this.dataSource.manager, site),
        organization: access.entity.organization,
        role: access.role,
      },
    };
  }

  /**
   * The views with their spaces or sites as the caller sees them (`extended=true`); a space the
   * caller does not see stays an ID.
   */
  async extend(
    user: UserActor,
    views: ContentInstallationView[],
  ): Promise<ContentInstallationView[]> {
    const spaceIds = views
      .filter((view) => view.kind === 'space')
      .map((view) => contentIdOf(view.row));
    const spaces = await this.spaces.resolveMany(user.userId, spaceIds);
    const organizations = new Map<string, ResolvedAccess | null>();
    const extended: ContentInstallationView[] = [];
    for (const view of views) {
      const id = contentIdOf(view.row);
      if (view.kind === 'space') {
        const space = spaces.get(id);
        extended.push(space ? { ...view, space: { space: space.entity, role: space.role } } : view);
        continue;
      }
      const organizationId = view.installation.organizationId;
      if (!organizations.has(organizationId)) {
        organizations.set(
          organizationId,
          await this.policy.resolve(user.userId, 'organization', organizationId),
        );
      }
      const organization = organizations.get(organizationId);
      if (!organization) {
        extended.push(view);
        continue;
      }
      extended.push({
        ...view,
        site: {
          site: await this.sites.get(organizationId, id),
          organization: organization.entity as Organization,
          role: organization.role,
        },
      });
    }
    return extended;
  }

  /** `extend` over a page. */
  async extendPage(
    user: UserActor,
    page: Page<ContentInstallationView>,
  ): Promise<Page<ContentInstallationView>> {
    return { ...page, items: await this.extend(user, page.items) };
  }

  /** The space installation the guard resolved; its space too with `extended`. */
  spaceView(access: SpaceInstallationAccess, extended = false): ContentInstallationView {
    const { integration, installation, spaceInstallation, space } = access.entity;
    return {
      kind: 'space',
      integration,
      installation,
      row: spaceInstallation,
      ...(extended ? { space: { space, role: access.role } } : {}),
    };
  }

  /** The site installation the guard resolved; its site too with `extended`. */
  async siteView(
    access: SiteInstallationAccess,
    extended = false,
  ): Promise<ContentInstallationView> {
    const { integration, installation, siteInstallation, site, organization } = access.entity;
    return {
      kind: 'site',
      integration,
      installation,
      row: siteInstallation,
      ...(extended
        ? {
            site: {
              site: await this.sites.withCount(this.dataSource.manager, site),
              organization,
              role: access.role,
            },
          }
        : {}),
    };
  }

  /** Changes a space or site installation's fields given; its configuration checked first. */
  async updateContent(
    view: ContentInstallationView,
    input: UpdateContentInstallationDto,
  ): Promise<ContentInstallationView> {
    const { kind, integration, installation, row } = view;
    if (input.configuration) validateConfiguration(integration, kind, input.configuration);
    const changes = {
      ...(input.configuration ? { configuration: input.configuration } : {}),
      ...(input.externalIds ? { externalIds: [...new Set(input.externalIds)] } : {}),
      updatedAt: this.clock.now(),
    };
    const contentId = contentIdOf(row);
    await this.dataSource.transaction((manager) =>
      this.installations.updateContent(kind, installation.id, contentId, changes, manager),
    );
    const updated = { ...row, ...changes } as ContentInstallation;
    this.events.installationChanged(
      kind,
      'updated',
      this.ids(integration, installation, kind, contentId),
    );
    return { ...view, row: updated };
  }

  /** Uninstalls it from the space or site; false when there was none the caller sees. */
  async uninstallContent(view: ContentInstallationView | null): Promise<boolean> {
    if (!view) return false;
    const { kind, integration, installation, row } = view;
    const contentId = contentIdOf(row);
    const deleted = await this.dataSource.transaction((manager) =>
      this.installations.deleteContent(kind, installation.id, contentId, manager),
    );
    if (deleted) {
      this.events.installationChanged(
        kind,
        'deleted',
        this.ids(integration, installation, kind, contentId),
      );
    }
    return deleted;
  }

  /** The space or site installations of one installation, oldest first. */
  async listContent(
    kind: ContentKind,
    access: InstallationAccess,
    request: PageRequest,
  ): Promise<Page<ContentInstallationView>> {
    const page = await this.installations.pageContent(
      kind,
      { installationId: access.entity.installation.id },
      request,
    );
    return mapPage(page, contentView);
  }

  /**
   * The integration's space or site installations in the organizations where the caller may
   * list installations (as `list`), oldest first.
   */
  async listContentOfIntegration(
    kind: ContentKind,
    caller: UserActor | IntegrationActor,
    access: ResolvedAccess<Integration>,
    externalId: string | undefined,
    request: PageRequest,
  ): Promise<Page<ContentInstallationView>> {
    const page = await this.installations.pageContent(
      kind,
      { integrationId: access.entity!.id, reach: this.reachOf(caller), externalId },
      request,
    );
    return mapPage(page, contentView);
  }

  /** The integrations installed on the organization, with the catalogue's filters. */
  async listOrganizationIntegrations(
    user: UserActor,
    organizationId: string,
    query: ListIntegrationsQueryDto,
  ): Promise<Page<IntegrationView>> {
    return this.integrationViews(
      user,
      await this.installations.pageInstalledIntegrations({ organizationId }, query),
    );
  }

  /** The integrations installed on a space or site; `search` in their name or title. */
  async listContentIntegrations(
    user: UserActor,
    kind: ContentKind,
    contentId: string,
    query: PageRequest & { search?: string },
  ): Promise<Page<IntegrationView>> {
    return this.integrationViews(
      user,
      await this.installations.pageInstalledIntegrations({ kind, id: contentId }, query),
    );
  }

  /** The organization's installations with their integrations, by integration name. */
  async listOrganizationInstallations(
    user: UserActor,
    organizationId: string,
    search: string | undefined,
    request: PageRequest,
  ): Promise<Page<{ installation: InstallationView; integration: IntegrationView }>> {
    const page = await this.installations.pageOrganizationInstallations(
      organizationId,
      search,
      request,
    );
    const counts = await this.installations.countSpaces(
      page.items.map((item) => item.installation.id),
    );
    const integrations = await this.integrationViews(
      user,
      mapPage(page, (item) => item.integration),
    );
    return {
      ...page,
      items: page.items.map((item, i) => ({
        installation: { ...item, spaces: counts.get(item.installation.id) ?? 0 },
        integration: integrations.items[i],
      })),
    };
  }

  /** The status of the integration's installation on the organization; 404 when there is none. */
  async organizationStatus(
    user: UserActor,
    organizationId: string,
    integrationName: string,
  ): Promise<InstallationStatus> {
    const integration = await this.visibleIntegration(user, integrationName);
    const installation = await this.installations.findInstallationInOrganization(
      integration.id,
      organizationId,
    );
    if (!installation) throw notFound('Integration installation');
    return configurationStatus(integration, 'account', installation.configuration);
  }

  /**
   * GitBook's `InstalledIntegration`s of the organization: its own installations (`target`
   * organization, the default), or those on its spaces or sites (one of them with `space` or
   * `site`). 400 for `space` or `site` with another target.
   */
  async organizationStatuses(
    user: UserActor,
    organizationId: string,
    query: IntegrationsStatusQueryDto,
  ): Promise<Page<InstalledIntegrationView>> {
    const target = query.target ?? 'organization';
    if (query.space !== undefined && target !== 'space') {
      throw invalidInput('space is only valid with target=space');
    }
    if (query.site !== undefined && target !== 'site') {
      throw invalidInput('site is only valid with target=site');
    }
    if (target === 'organization') {
      const page = await this.installations.pageOrganizationInstallations(
        organizationId,
        undefined,
        query,
      );
      const views = await this.integrationViews(
        user,
        mapPage(page, (item) => item.integration),
      );
      return {
        ...page,
        items: page.items.map(({ installation, integration }, i) => ({
          status: configurationStatus(integration, 'account', installation.configuration),
          integration: views.items[i],
          target: { type: 'organization', organizationId },
        })),
      };
    }
    const page = await this.installations.pageContent(
      target,
      { organizationId, contentId: target === 'space' ? query.space : query.site },
      query,
    );
    const views = await this.integrationViews(
      user,
      mapPage(page, (item) => item.integration),
    );
    return {
      ...page,
      items: page.items.map((item, i) => ({
        status: statusOf(item),
        integration: views.items[i],
        target:
          target === 'space'
            ? { type: 'space', spaceId: contentIdOf(item.row) }
            : { type: 'site', siteId: contentIdOf(item.row) },
      })),
    };
  }

  /** The blocks of the integrations whose installation on the space is active, by name. */
  async spaceBlocks(spaceId: string): Promise<Integration[]> {
    const rows = await this.installations.installedOn('space', spaceId, { blocks: true });
    return rows.filter((row) => statusOf(row) === 'active').map((row) => row.integration);
  }

  /**
   * The active installations on the site of integrations with the `site:script:inject` scope:
   * the scripts the site's pages load.
   */
  async siteScripts(siteId: string): Promise<SiteScriptView[]> {
    const rows = await this.installations.installedOn('site', siteId, { scope: SCRIPT_SCOPE });
    return rows
      .filter((row) => statusOf(row) === 'active')
      .map(({ integration, installation }) => ({ integration, installation, siteId }));
  }

  /** The integration named `name` as the user sees it; 404 when it does not. */
  private async visibleIntegration(user: UserActor, name: string): Promise<Integration> {
    const access = (await this.policy.resolve(
      user.userId,
      'integration',
      name,
    )) as ResolvedAccess<Integration> | null;
    if (!access) throw notFound('Integration');
    return access.entity!;
  }

  /** 400 when the integration's `target` does not allow installing it on a space or site. */
  private assertTarget(integration: Integration, kind: ContentKind): void {
    if (integration.target !== 'all' && integration.target !== kind) {
      throw invalidInput(
        `${integration.name} installs on ${integration.target === 'organization' ? 'organizations' : `${integration.target}s`} only, not on ${kind}s.`,
      );
    }
  }

  private async insertContent(
    kind: ContentKind,
    access: InstallationAccess,
    contentId: string,
  ): Promise<ContentInstallation> {
    const { integration, installation } = access.entity;
    const now = this.clock.now();
    const fields = {
      installationId: installation.id,
      organizationId: installation.organizationId,
      configuration: {},
      externalIds: [],
      createdAt: now,
      updatedAt: now,
    };
    const row: ContentInstallation =
      kind === 'space'
        ? Object.assign(new IntegrationSpaceInstallation(), fields, { spaceId: contentId })
        : Object.assign(new IntegrationSiteInstallation(), fields, { siteId: contentId });
    await this.dataSource.transaction(async (manager: EntityManager) => {
      if (await this.installations.findContent(kind, installation.id, contentId, manager)) {
        throw alreadyInstalled(`this ${kind}`);
      }
      await this.installations.insertContent(kind, row, manager);
    });
    this.events.installationChanged(
      kind,
      'created',
      this.ids(integration, installation, kind, contentId),
    );
    return row;
  }

  /** Integrations as the user sees them: their owner, and whether the user administers it. */
  private async integrationViews(
    user: UserActor,
    page: Page<Integration>,
  ): Promise<Page<IntegrationView>> {
    const owners = new Map<string, { owner: Organization | null; admin: boolean }>();
    for (const organizationId of new Set(page.items.map((item) => item.organizationId))) {
      const access = await this.policy.resolve(user.userId, 'organization', organizationId);
      owners.set(organizationId, {
        owner:
          (access?.entity as Organization | undefined) ??
          (await this.organizations.findById(organizationId)),
        admin: access?.role === 'admin',
      });
    }
    return mapPage(page, (integration) => {
      const { owner, admin } = owners.get(integration.organizationId)!;
      if (!owner) throw notFound('Integration');
      return { integration, owner, admin };
    });
  }

  /** The organizations a list reaches: a user's where it may list; all, for the integration. */
  private reachOf(caller: UserActor | IntegrationActor): OrganizationReach | null {
    return caller.kind === 'user' ? this.reach(caller) : null;
  }

  private reach(user: UserActor): OrganizationReach {
    return { userId: user.userId, roles: LISTING_ROLES };
  }

  private ids(
    integration: Integration,
    installation: IntegrationInstallation,
    kind?: ContentKind,
    contentId?: string,
  ): InstallationIds {
    return {
      integrationId: integration.id,
      integrationName: integration.name,
      installationId: installation.id,
      organizationId: installation.organizationId,
      ...(kind === 'space' ? { spaceId: contentId } : {}),
      ...(kind === 'site' ? { siteId: contentId } : {}),
    };
  }
}

function contentView({
  kind,
  row,
  installation,
  integration,
}: ContentInstallationRow): ContentInstallationView {
  return { kind, row, installation, integration };
}
