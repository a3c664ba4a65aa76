import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrganizationsService } from '../orgs/organizations.service';
import { SpacesService } from '../spaces/spaces.service';
import { UsersService } from '../users/users.service';
import { DemoSeedRepository } from './demo-seed.repository';

export interface DemoSeedResult {
  userEmail: string;
  organizationId: string;
  /** The demo organization's first space, "Getting started". */
  spaceId: string;
  token: string;
}

/**
 * On an empty database, a demo user with an API token and a demo organization holding one
 * space, so that a first `npm start` can be tried with curl and the Swagger UI at once. All of
 * it in one transaction: a failed seed leaves nothing behind and is tried again next start.
 */
@Injectable()
export class DemoSeed {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly seeding: DemoSeedRepository,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly spaces: SpacesService,
  ) {}

  /** Seeds when no user exists yet; returns what it made, or undefined. */
  run(): Promise<DemoSeedResult | undefined> {
    return this.dataSource.transaction(async (manager) => {
      await this.seeding.lockSeeding(manager);
      if (await this.users.hasAny(manager)) return undefined;
      const { user, token } = await this.users.create(
        { email: 'demo@bindery.local', displayName: 'Demo User' },
        manager,
      );
      const organization = await this.organizations.create(
        user.id,
        { title: 'Demo Organization' },
        manager,
      );
      // Through the same use case as POST /orgs/{id}/spaces, as the organization's admin.
      const space = await this.spaces.create(
        organization,
        'admin',
        user.id,
        { title: 'Getting started' },
        manager,
      );
      return {
        userEmail: user.email,
        organizationId: organization.id,
        spaceId: space.id,
        token,
      };
    });
  }
}
