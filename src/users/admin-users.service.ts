import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError, forbidden, invalidInput, notFound } from '../platform/errors/domain-error';
import type { PageRequest } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import { AdminUsersRepository } from './admin-users.repository';
import type { CreateTokenDto, UpdateUserDto, UpdateUserProfileDto } from './dto/admin-user.dto';
import type { ApiToken } from './entities/api-token.entity';
import type { User } from './entities/user.entity';
import { TokensService } from './tokens.service';
import { UserDeletionHooks } from './user-deletion';
import { UsersService } from './users.service';

const userNotFound = () => notFound('User');

/** The address a deleted user keeps: unique, never deliverable (`.invalid`, RFC 2606). */
export const deletedUserEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * The instance administrator's use cases on users: a deleted user is not found by any of them.
 * Deletion keeps the user's row (see `delete`).
 */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly repository: AdminUsersRepository,
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly clock: Clock,
    private readonly deletionHooks: UserDeletionHooks,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(request: PageRequest): Promise<Page<User>> {
    return this.repository.page(request);
  }

  /**
   * Renames the user, changes its address (lower-cased; 409 when another user has it) or
   * disables it (its tokens stop at once in this process, within TOKEN_CACHE_MS in the others).
   */
  async update(userId: string, input: UpdateUserDto): Promise<User> {
    const { disabled, displayName, email } = input;
    if (disabled === undefined && displayName === undefined && email === undefined) {
      throw invalidInput('Send at least one of disabled, displayName, email.');
    }
    const user = await this.dataSource.transaction(async (tx) => {
      const found = await this.repository.findLive(userId, tx, true);
      if (!found) throw userNotFound();
      const changes: Partial<Pick<User, 'displayName' | 'email' | 'disabled' | 'updatedAt'>> = {};
      if (disabled !== undefined) changes.disabled = disabled;
      if (displayName !== undefined) {
        changes.displayName = displayName.trim();
        if (changes.displayName === '') throw invalidInput('displayName must not be blank.');
      }
      if (email !== undefined) {
        changes.email = email.trim().toLowerCase();
        if (await this.repository.emailTakenByAnother(changes.email, userId, tx)) {
          throw new DomainError(
            'conflict',
            'UserEmailTaken',
            `A user with email ${changes.email} already exists.`,
          );
        }
      }
      changes.updatedAt = this.clock.now();
      await this.repository.update(userId, changes, tx);
      return Object.assign(found, changes);
    });
    // The token cache holds the user as it was: its name, its address, whether it may sign in.
    this.tokens.forgetUser(userId);
    return user;
  }

  /**
   * Changes a user's profile (`updateUserById`): its display name (trimmed; not blank) or the
   * URL of its picture. `callerId`: the user making the change, who may change only its own
   * (403 for another user it sees, 404 for one it does not); null for the instance
   * administrator, who may change any user's. 404 for a deleted user.
   */
  async updateProfile(
    callerId: string | null,
    userId: string,
    input: UpdateUserProfileDto,
  ): Promise<User> {
    const { displayName, photoURL } = input;
    if (displayName === undefined && photoURL === undefined) {
      throw invalidInput('Send at least one of displayName, photoURL.');
    }
    if (callerId !== null && callerId !== userId) {
      // Whether the caller sees the user decides between 404 and 403.
      await this.users.getVisibleTo(callerId, userId);
      throw forbidden('You can only update your own profile.');
    }
    const user = await this.dataSource.transaction(async (tx) => {
      const found = await this.repository.findLive(userId, tx, true);
      if (!found) throw userNotFound();
      const changes: Partial<Pick<User, 'displayName' | 'photoUrl' | 'updatedAt'>> = {};
      if (displayName !== undefined) {
        changes.displayName = displayName.trim();
        if (changes.displayName === '') throw invalidInput('displayName must not be blank.');
      }
      if (photoURL !== undefined) changes.photoUrl = photoURL;
      changes.updatedAt = this.clock.now();
      await this.repository.update(userId, changes, tx);
      return Object.assign(found, changes);
    });
    // The token cache holds the user as it was: its name is in what its tokens answer.
    this.tokens.forgetUser(userId);
    return user;
  }

  /**
   * Deletes the user: its API tokens and memberships go (its requests are refused at once in
   * this process, within TOKEN_CACHE_MS in the others), its address is anonymized and freed,
   * and its row stays, disabled, so that its revisions, change requests, comments and replies
   * keep their author (a hard delete would cascade to its comments, and null the authors of the
   * rest). 409 when it is the only enabled admin of an organization.
   */
  async delete(userId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const user = await this.repository.findLive(userId, tx, true);
      if (!user) throw userNotFound();
      const orphaned = await this.repository.organizationsLeftWithoutAdmin(userId, tx);
      if (orphaned.length > 0) {
        throw new DomainError(
          'conflict',
          'UserIsLastAdmin',
          `The user is the last admin of organization ${orphaned.join(', ')}: make another member admin first.`,
        );
      }
      // Modules above (organizations) remove what they hold of the user, with their events.
      await this.deletionHooks.run(tx, userId);
      await this.repository.markDeleted(userId, deletedUserEmail(userId), this.clock.now(), tx);
    });
    this.tokens.forgetUser(userId);
  }

  /** `UsersService.issueToken`, for a user that is not deleted. */
  async issueToken(
    userId: string,
    input: CreateTokenDto,
  ): Promise<{ token: string; record: ApiToken }> {
    await this.getLive(userId);
    return this.users.issueToken(userId, input);
  }

  /** `UsersService.listTokens`, for a user that is not deleted. */
  async listTokens(userId: string, request: PageRequest): Promise<Page<ApiToken>> {
    await this.getLive(userId);
    return this.users.listTokens(userId, request);
  }

  private async getLive(userId: string): Promise<User> {
    const user = await this.repository.findLive(userId);
    if (!user) throw userNotFound();
    return user;
  }
}
