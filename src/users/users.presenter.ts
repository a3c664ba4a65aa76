import { Injectable } from '@nestjs/common';
import type { TokenScope } from '../platform/auth/actor';
import { UrlBuilder } from '../platform/urls/url-builder';
import {
  AdminUserResponse,
  ApiTokenResponse,
  CreatedTokenResponse,
  TokenScopesResponse,
  UserResponse,
} from './dto/user.response';
import { ApiToken } from './entities/api-token.entity';
import { User } from './entities/user.entity';

@Injectable()
export class UsersPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  user(user: User): UserResponse {
    return {
      object: 'user',
      id: user.id,
      displayName: user.displayName,
      email: user.email,
      ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
      urls: { location: this.urls.api('users', user.id) },
    };
  }

  /** What a published site's readers see of a user (a mention in its content): no email. */
  publicUser(user: User): UserResponse {
    const { email: _email, ...rest } = this.user(user);
    return rest;
  }

  adminUser(user: User): AdminUserResponse {
    return { ...this.user(user), disabled: user.disabled, createdAt: user.createdAt.toISOString() };
  }

  /** A token as listed: label, dates, never its secret. */
  token(token: ApiToken): ApiTokenResponse {
    return {
      object: 'api-token',
      id: token.id,
      ...(token.label !== null ? { label: token.label } : {}),
      createdAt: token.createdAt.toISOString(),
      ...(token.expiresAt ? { expiresAt: token.expiresAt.toISOString() } : {}),
      ...(token.lastUsedAt ? { lastUsedAt: token.lastUsedAt.toISOString() } : {}),
      scopes: scopesOf(token.scope),
    };
  }

  /** A token just created, with its secret (shown this once). */
  createdToken(created: { token: string; record: ApiToken }): CreatedTokenResponse {
    return { ...this.token(created.record), token: created.token };
  }
}

function scopesOf(scope: TokenScope | null): TokenScopesResponse {
  if (!scope) return { access: 'read-write' };
  return {
    access: scope.access,
    ...(scope.organization !== null ? { organization: scope.organization } : {}),
    ...(scope.spaces !== null ? { spaces: [...scope.spaces] } : {}),
    ...(scope.sites !== null ? { sites: [...scope.sites] } : {}),
  };
}
