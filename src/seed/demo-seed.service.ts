import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrganizationsService } from '../orgs/organizations.service';
import { SpacesService } from '../spaces/spaces.service';
import { User } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';

export interface DemoSeedResult {
  userEmail: string;
  organizationId: string;
  /** The demo organization's first space, "Getting started". */
  spaceId: string;
  token: string;
}

/** Arbitrary constant key of the advisory lock that lets one process seed at a time. */
const SEED_LOCK = 4_917_331;

/**
 * On an empty database, a demo user with an API token and a demo organization holding one
 * space, so that a first `npm start` can be tried with curl and the Swagger UI at once. All of
 * it in one transaction: a failed seed leaves nothing behind and is tried again next start.
 */
@Injectable()
export class DemoSeed {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly spaces: SpacesService,
  ) {}

  /** Seeds when no user exists yet; returns what it made, or undefined. */
  run(): Promise<DemoSeedResult | undefined> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
      if (await manager.exists(User)) return undefined;
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
