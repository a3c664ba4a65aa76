import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { CreateUserDto, type TokenScopesDto } from './dto/admin-user.dto';
import { ApiToken } from './entities/api-token.entity';
import { User } from './entities/user.entity';
import { TokenScopes } from './token-scopes';
import { TokensService } from './tokens.service';
import { UsersRepository } from './users.repository';

const userNotFound = () => notFound('User');

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly usersRepository: UsersRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tokens: TokensService,
    private readonly clock: Clock,
    private readonly scopes: TokenScopes,
  ) {}

  /** Creates a user with a first API token, in one transaction (the caller's, when given). */
  create(input: CreateUserDto, outer?: EntityManager): Promise<{ user: User; token: string }> {
    const email = input.email.trim().toLowerCase();
    const work = async (manager: EntityManager) => {
      const taken = await manager.existsBy(User, { email });
      if (taken)
        throw new DomainError(
          'conflict',
          'UserEmailTaken',
          `A user with email ${email} already exists.`,
        );
      const user = await this.insert(manager, { ...input, email });
      const { token } = await this.tokens.issue(user.id, { label: 'initial' }, manager);
      return { user, token };
    };
    return outer ? work(outer) : this.dataSource.transaction(work);
  }

  /**
   * Creates a user without any token, in the caller's transaction: for sign-ins that issue
   * their own, narrower one (SAML). The address must be free (a unique violation otherwise).
   */
  createWithoutToken(
    input: { email: string; displayName: string },
    manager: EntityManager,
  ): Promise<User> {
    return this.insert(manager, { ...input, email: input.email.trim().toLowerCase() });
  }

  /** The user with this address (compared lower-cased), or null. */
  findByEmail(email: string, manager?: EntityManager): Promise<User | null> {
    return this.usersRepository.findByEmail(email.trim().toLowerCase(), manager);
  }

  private async insert(
    manager: EntityManager,
    input: { email: string; displayName: string; photoURL?: string | null },
  ): Promise<User> {
    const now = this.clock.now();
    const user = manager.create(User, {
      id: newId(),
      email: input.email,
      displayName: input.displayName.trim(),
      photoUrl: input.photoURL ?? null,
      disabled: false,
      createdAt: now,
      updatedAt: now,
    });
    await manager.insert(User, user);
    return user;
  }

  /** The user, or null when there is none; read within `manager`'s transaction when given. */
  async find(userId: string, manager?: EntityManager): Promise<User | null> {
    return manager ? manager.findOneBy(User, { id: userId }) : this.users.findOneBy({ id: userId });
  }

  async get(userId: string): Promise<User> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user) throw userNotFound();
    return user;
  }

  /** A user the caller may see: itself, or someone sharing an organization with it. */
  async getVisibleTo(callerId: string, userId: string): Promise<User> {
    if (callerId === userId) return this.get(userId);
    const user = await this.usersRepository.findSharingAnOrganization(callerId, userId);
    if (!user) throw userNotFound();
    return user;
  }

  /** The user, if a member of the organization; null otherwise. */
  findMemberOf(organizationId: string, userId: string): Promise<User | null> {
    return this.usersRepository.findMemberOf(organizationId, userId);
  }

  list(request: PageRequest): Promise<Page<User>> {
    return this.usersRepository.page(request);
  }

  /** Whether any user exists (in `manager`'s transaction when given). */
  hasAny(manager?: EntityManager): Promise<boolean> {
    return this.usersRepository.hasAny(manager);
  }

  /**
   * A new token of the user, shown once; 400 when `expiresAt` is not in the future, or its
   * scopes name what the user does not see.
   */
  async issueToken(
    userId: string,
    input: { label?: string; expiresAt?: string; scopes?: TokenScopesDto } = {},
  ): Promise<{ token: string; record: ApiToken }> {
    await this.get(userId);
    let expiresAt: Date | null = null;
    if (input.expiresAt !== undefined) {
      expiresAt = new Date(input.expiresAt);
      if (expiresAt.getTime() <= this.clock.now().getTime()) {
        throw invalidInput('expiresAt must be in the future.');
      }
    }
    const scope = await this.scopes.read(userId, input.scopes);
    return this.tokens.issue(userId, { label: input.label ?? null, expiresAt, scope });
  }

  /** The user's tokens, newest first (never their secrets). */
  async listTokens(userId: string, request: PageRequest): Promise<Page<ApiToken>> {
    await this.get(userId);
    return this.usersRepository.tokens(userId, request);
  }

  /**
   * Revokes the user's token: it stops working at the next request to this process, and within
   * TOKEN_CACHE_MS on the others. 404 when not theirs.
   */
  async revokeToken(userId: string, tokenId: string): Promise<void> {
    if (!(await this.usersRepository.deleteToken(userId, tokenId))) {
      throw notFound('API token');
    }
    this.tokens.forgetToken(tokenId);
  }
}
