import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Member } from '../../src/orgs/entities/member.entity';
import type { Role } from '../../src/platform/policy/roles';
import { Client } from './client';

export interface TestUser {
  id: string;
  email: string;
  displayName: string;
  token: string;
  client: Client;
}

export interface TestOrganization {
  id: string;
  title: string;
  owner: TestUser;
}

const unique = () => randomBytes(4).toString('hex');

/** Builds test data through the API where it exists, so tests exercise real paths. */
export class Factories {
  constructor(
    private readonly admin: Client,
    private readonly clientFor: (token: string) => Client,
    private readonly dataSource: DataSource,
  ) {}

  async user(overrides: { email?: string; displayName?: string } = {}): Promise<TestUser> {
    const suffix = unique();
    const body = {
      email: overrides.email ?? `user-${suffix}@example.com`,
      displayName: overrides.displayName ?? `User ${suffix}`,
    };
    const response = await this.admin.post('/v1/admin/users', body).expect(201);
    const { user, token } = response.body as {
      user: { id: string; email: string; displayName: string };
      token: string;
    };
    return {
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      token,
      client: this.clientFor(token),
    };
  }

  /** A new organization whose owner (admin member) is a new user unless given. */
  async organization(
    options: { owner?: TestUser; title?: string } = {},
  ): Promise<TestOrganization> {
    const owner = options.owner ?? (await this.user());
    const title = options.title ?? `Org ${unique()}`;
    const response = await owner.client.post('/v1/orgs', { title }).expect(201);
    return { id: (response.body as { id: string }).id, title, owner };
  }

  /** A new user who is a member of the organization with `role` (null = guest). */
  async member(organization: TestOrganization, role: Role | null): Promise<TestUser> {
    const user = await this.user();
    await this.dataSource.getRepository(Member).insert({
      organizationId: organization.id,
      userId: user.id,
      role,
      sso: false,
      disabled: false,
      joinedAt: new Date(),
      lastSeenAt: null,
    });
    return user;
  }

  /** `asMember(org, 'read')`: a client acting as a new member with that role. */
  async asMember(organization: TestOrganization, role: Role | null): Promise<Client> {
    return (await this.member(organization, role)).client;
  }
}
