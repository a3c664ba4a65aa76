import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { SamlProvider } from './entities/saml-provider.entity';

/** The `saml_providers` table. */
@Injectable()
export class SamlProvidersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's providers with their default team, oldest first. */
  pageInOrganization(
    organizationId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<SamlProvider>> {
    return paginate(this.withDefaultTeam(manager, organizationId), request, {
      keys: [
        { sql: 'p.created_at', of: (p) => p.createdAt },
        { sql: 'p.id', of: (p) => p.id },
      ],
      direction: 'ASC',
    });
  }

  /** The organization's provider with its default team; null when it has none such. */
  findInOrganization(
    organizationId: string,
    samlProviderId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SamlProvider | null> {
    return this.withDefaultTeam(manager, organizationId)
      .andWhere('p.id = :samlProviderId', { samlProviderId })
      .getOne();
  }

  /** The provider (no relations), whatever its organization; null when there is none. */
  findById(
    samlProviderId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SamlProvider | null> {
    return manager.getRepository(SamlProvider).findOneBy({ id: samlProviderId });
  }

  /** All the organization's providers (no relations), oldest first. */
  listInOrganization(
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SamlProvider[]> {
    return manager
      .getRepository(SamlProvider)
      .createQueryBuilder('p')
      .where('p.organization_id = :organizationId', { organizationId })
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getMany();
  }

  /** Inserts the provider. */
  async insert(
    provider: SamlProvider,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.getRepository(SamlProvider).insert(provider);
  }

  /** Sets the fields `changes` of the organization's provider; false when it has none such. */
  async update(
    organizationId: string,
    samlProviderId: string,
    changes: Partial<SamlProvider>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(SamlProvider)
      .update({ organizationId, id: samlProviderId }, changes);
    return result.affected !== 0;
  }

  /** Deletes the organization's provider, if it exists. */
  async delete(
    organizationId: string,
    samlProviderId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.getRepository(SamlProvider).delete({ organizationId, id: samlProviderId });
  }

  /** The organization's providers with their default team (teams, orgs' own). */
  private withDefaultTeam(
    manager: EntityManager,
    organizationId: string,
  ): SelectQueryBuilder<SamlProvider> {
    return manager
      .getRepository(SamlProvider)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.defaultTeam', 't')
      .where('p.organization_id = :organizationId', { organizationId });
  }
}
