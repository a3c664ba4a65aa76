import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { Team } from '../teams/entities/team.entity';
import { TeamsService, TeamView } from '../teams/teams.service';
import { CreateSamlProviderDto, UpdateSamlProviderDto } from './dto/create-saml-provider.dto';
import { SamlProvider } from './entities/saml-provider.entity';
import { samlProviderStatus } from './saml-provider-status';
import { SamlProvidersRepository } from './saml-providers.repository';

/** A provider with what its response shows of its default team. */
export interface SamlProviderView {
  provider: SamlProvider;
  defaultTeam: TeamView | null;
}

@Injectable()
export class SamlProvidersService {
  constructor(
    private readonly providers: SamlProvidersRepository,
    private readonly teamsService: TeamsService,
    private readonly clock: Clock,
  ) {}

  /** The organization's providers, oldest first. */
  async list(organizationId: string, request: PageRequest): Promise<Page<SamlProviderView>> {
    const page = await this.providers.pageInOrganization(organizationId, request);
    return { ...page, items: await this.withTeams(organizationId, page.items) };
  }

  async get(organizationId: string, samlProviderId: string): Promise<SamlProviderView> {
    const [view] = await this.withTeams(organizationId, [
      await this.find(organizationId, samlProviderId),
    ]);
    return view;
  }

  async create(organizationId: string, input: CreateSamlProviderDto): Promise<SamlProviderView> {
    const defaultTeam = await this.defaultTeamOf(organizationId, input.defaultTeam);
    const now = this.clock.now();
    const provider: SamlProvider = {
      id: newId(),
      organizationId,
      label: input.label,
      entityId: input.entityID ?? null,
      certificate: input.certificate ?? null,
      ssoUrl: input.ssoURL ?? null,
      defaultTeamId: defaultTeam?.id ?? null,
      defaultRole: input.defaultRole === undefined ? 'read' : input.defaultRole,
      idpInitiatedLogin: input.idpInitiatedLogin ?? false,
      createdAt: now,
      updatedAt: now,
    };
    await this.providers.insert(provider);
    return (await this.withTeams(organizationId, [{ ...provider, defaultTeam }]))[0];
  }

  async update(
    organizationId: string,
    samlProviderId: string,
    input: UpdateSamlProviderDto,
  ): Promise<SamlProviderView> {
    const existing = await this.find(organizationId, samlProviderId);
    const changes: Partial<SamlProvider> = {
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(input.entityID !== undefined ? { entityId: input.entityID } : {}),
      ...(input.certificate !== undefined ? { certificate: input.certificate } : {}),
      ...(input.ssoURL !== undefined ? { ssoUrl: input.ssoURL } : {}),
      ...(input.defaultRole !== undefined ? { defaultRole: input.defaultRole } : {}),
      ...(input.idpInitiatedLogin !== undefined
        ? { idpInitiatedLogin: input.idpInitiatedLogin }
        : {}),
      updatedAt: this.clock.now(),
    };
    let defaultTeam = existing.defaultTeam ?? null;
    if (input.defaultTeam !== undefined) {
      defaultTeam = await this.defaultTeamOf(organizationId, input.defaultTeam);
      changes.defaultTeamId = defaultTeam?.id ?? null;
    }
    const updated = await this.providers.update(organizationId, samlProviderId, changes);
    if (!updated) throw notFound('SAML provider');
    return (await this.withTeams(organizationId, [{ ...existing, ...changes, defaultTeam }]))[0];
  }

  /** Deletes the provider; nothing to do when it does not exist. */
  async remove(organizationId: string, samlProviderId: string): Promise<void> {
    await this.providers.delete(organizationId, samlProviderId);
  }

  /** The providers members can sign in with now (the `active` ones), oldest first. */
  async listActive(organizationId: string): Promise<SamlProvider[]> {
    const providers = await this.providers.listInOrganization(organizationId);
    return providers.filter((provider) => samlProviderStatus(provider) === 'active');
  }

  /**
   * The provider, whatever its organization (for its sign-in routes); null when none. Read
   * within `manager`'s transaction when given.
   */
  findById(samlProviderId: string, manager?: EntityManager): Promise<SamlProvider | null> {
    return this.providers.findById(samlProviderId, manager);
  }

  private async find(organizationId: string, samlProviderId: string): Promise<SamlProvider> {
    const provider = await this.providers.findInOrganization(organizationId, samlProviderId);
    if (!provider) throw notFound('SAML provider');
    return provider;
  }

  /** The team named by `defaultTeam` (null clears), which must belong to the organization. */
  private async defaultTeamOf(
    organizationId: string,
    teamId: string | null | undefined,
  ): Promise<Team | null> {
    if (teamId == null) return null;
    const team = await this.teamsService.findInOrganization(organizationId, teamId);
    if (!team) throw invalidInput('defaultTeam must be the id of a team of this organization.');
    return team;
  }

  /**
   * The providers' default teams with their member counts, in one query. SAML providers are
   * an admin's business, and an admin's team permissions do not depend on its team role, so
   * the teams are described without a viewer.
   */
  private async withTeams(
    _organizationId: string,
    providers: SamlProvider[],
  ): Promise<SamlProviderView[]> {
    const teams = [
      ...new Map(
        providers.flatMap((p) =>
          p.defaultTeam ? [[p.defaultTeam.id, p.defaultTeam] as const] : [],
        ),
      ).values(),
    ];
    const views = new Map(
      (await this.teamsService.describe(teams, '')).map((view) => [view.team.id, view]),
    );
    return providers.map((provider) => ({
      provider,
      defaultTeam: provider.defaultTeam ? (views.get(provider.defaultTeam.id) ?? null) : null,
    }));
  }
}
