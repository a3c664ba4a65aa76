import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../errors/domain-error';
import type { AccessRequirement, IntegrationAdmission, ResolvedAccess } from '../policy/access';
import { PolicyService } from '../policy/policy.service';
import { AccessGuard } from './access.guard';
import type { IntegrationTokens } from './integration-tokens';
import type { SiteTokens } from './site-tokens';
import type { Actor, AuthenticatedRequest } from './actor';
import type { AdminToken } from './admin-token';
import type { Authenticator } from './authenticator';

declare module '../policy/access' {
  interface ResourceTypes {
    guardTestParent: true;
    guardTestChild: true;
  }
}

type Request = AuthenticatedRequest & { granted?: ResolvedAccess | null };

const user: Actor = {
  kind: 'user',
  userId: 'u1',
  tokenId: 't1',
  tokenHash: 'h',
  scope: null,
  user: {
    id: 'u1',
    email: 'u1@example.com',
    displayName: 'U1',
    photoUrl: null,
    disabled: false,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  },
};

function guardFor(requirement: AccessRequirement, caller: Actor, policy: PolicyService) {
  const reflector = { getAllAndOverride: () => requirement } as unknown as Reflector;
  const authenticator = { authenticate: () => Promise.resolve(caller) } as unknown as Authenticator;
  const adminToken = { matches: () => caller.kind === 'admin' } as unknown as AdminToken;
  const siteTokens = { verify: () => null } as unknown as SiteTokens;
  const integrationTokens = { verify: () => null } as unknown as IntegrationTokens;
  const guard = new AccessGuard(
    reflector,
    authenticator,
    adminToken,
    policy,
    siteTokens,
    integrationTokens,
  );
  const request = {
    headers: { authorization: 'Bearer token' },
    params: { parentId: 'p1', childId: 'c1' },
    query: {},
  } as unknown as Request;
  const context = {
    getHandler: () => () => undefined,
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { check: () => guard.canActivate(context), request };
}

const access = (resource: 'guardTestParent' | 'guardTestChild', id: string): ResolvedAccess => ({
  resource,
  id,
  organizationId: 'o1',
  role: 'read',
});

describe('AccessGuard', () => {
  let policy: PolicyService;
  let parentResolutions: number;

  beforeEach(() => {
    policy = new PolicyService();
    parentResolutions = 0;
    policy.register('guardTestParent', {
      resolve: (_userId, id) => {
        parentResolutions += 1;
        return Promise.resolve(id === 'p1' ? access('guardTestParent', id) : null);
      },
    });
    policy.register('guardTestChild', {
      resolver: {
        resolve: async (_userId, id, context) => {
          const parent = await context!.parent('guardTestParent', context!.params.parentId);
          await context!.parent('guardTestParent', context!.params.parentId);
          if (!parent) return null;
          return id === 'c1' ? access('guardTestChild', id) : null;
        },
      },
      actions: {
        read: () => null,
        write: (_access, request) =>
          request.body === undefined
            ? new DomainError('forbidden', 'NoBody', 'not read yet')
            : null,
      },
      readsBody: ['write'],
    });
  });

  it('refuses site readers and site visitors on member routes', async () => {
    const requirement: AccessRequirement = { kind: 'user' };
    for (const caller of [
      { kind: 'siteReader', siteId: 's', organizationId: 'o', tokenHash: 'h' } as Actor,
      { kind: 'siteVisitor', siteId: 's', claims: {}, signed: false },
    ] as Actor[]) {
      await expect(guardFor(requirement, caller, policy).check()).rejects.toMatchObject({
        kind: 'forbidden',
      });
    }
  });

  it('gives a resolver the route parameters and its parent, resolved once per request', async () => {
    const { check, request } = guardFor(
      { kind: 'resource', resource: 'guardTestChild', param: 'childId', need: 'read' },
      user,
      policy,
    );
    await expect(check()).resolves.toBe(true);
    expect(request.granted).toMatchObject({ resource: 'guardTestChild', id: 'c1' });
    expect(parentResolutions).toBe(1);
  });

  it('answers 404 for an absent resource, or runs the handler without it when the route proceeds', async () => {
    const requirement: AccessRequirement = {
      kind: 'resource',
      resource: 'guardTestChild',
      param: 'parentId', // names no child: absent
      need: 'read',
    };
    await expect(guardFor(requirement, user, policy).check()).rejects.toMatchObject({
      kind: 'not_found',
    });
    const proceeding = guardFor({ ...requirement, ifAbsent: 'proceed' }, user, policy);
    await expect(proceeding.check()).resolves.toBe(true);
    expect(proceeding.request.granted).toBeNull();
  });

  it('leaves an action that reads the body for after the body is read', async () => {
    const { check, request } = guardFor(
      { kind: 'resource', resource: 'guardTestChild', param: 'childId', need: 'write' },
      user,
      policy,
    );
    await expect(check()).resolves.toBe(true);
    expect(request.deferredDecision).toMatchObject({ resource: 'guardTestChild', need: 'write' });
  });

  it('checks a minimum role on a type without actions', async () => {
    const requirement: AccessRequirement = {
      kind: 'resource',
      resource: 'guardTestParent',
      param: 'parentId',
      need: 'edit',
    };
    await expect(guardFor(requirement, user, policy).check()).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'This needs the edit role on this guardTestParent.',
    });
  });

  describe('integration callers', () => {
    const integration: Actor = { kind: 'integration', integrationId: 'i1', tokenHash: 'h' };
    const installation: Actor = {
      kind: 'installation',
      integrationId: 'i1',
      installationId: 'n1',
      organizationId: 'o1',
      scopes: ['space:content:read'],
      tokenHash: 'h',
    };
    const child = (integrations?: IntegrationAdmission): AccessRequirement => ({
      kind: 'resource',
      resource: 'guardTestChild',
      param: 'childId',
      need: 'read',
      ...(integrations ? { integrations } : {}),
    });
    let callers: string[];

    beforeEach(() => {
      callers = [];
      policy.admitIntegrations('guardTestChild', (caller, id) => {
        callers.push(`${caller.kind}:${id}`);
        return Promise.resolve(id === 'c1' ? access('guardTestChild', id) : null);
      });
    });

    it('refuses them on routes that do not admit them, before reading anything', async () => {
      for (const caller of [integration, installation]) {
        await expect(guardFor(child(), caller, policy).check()).rejects.toMatchObject({
          kind: 'forbidden',
          message: "An integration's token cannot call this route.",
        });
      }
      await expect(guardFor({ kind: 'user' }, integration, policy).check()).rejects.toMatchObject({
        kind: 'forbidden',
      });
      expect(callers).toEqual([]);
    });

    it('takes only the kind of token the route names, and an installation only with its scope', async () => {
      await expect(
        guardFor(child({ installation: 'any' }), integration, policy).check(),
      ).rejects.toMatchObject({ kind: 'forbidden' });
      await expect(
        guardFor(child({ integration: true }), installation, policy).check(),
      ).rejects.toMatchObject({ kind: 'forbidden' });
      await expect(
        guardFor(child({ installation: 'space:content:write' }), installation, policy).check(),
      ).rejects.toMatchObject({
        kind: 'forbidden',
        message: 'This needs the integration to hold the space:content:write scope.',
      });
      expect(callers).toEqual([]);

      const admitted = guardFor(
        child({ installation: 'space:content:read' }),
        installation,
        policy,
      );
      await expect(admitted.check()).resolves.toBe(true);
      expect(admitted.request.granted).toMatchObject({ id: 'c1' });
      expect(callers).toEqual(['installation:c1']);
    });

    it('answers 404 for what the integration is not installed on', async () => {
      const { check } = guardFor(
        { ...child({ integration: true }), param: 'parentId' } as AccessRequirement,
        integration,
        policy,
      );
      await expect(check()).rejects.toMatchObject({ kind: 'not_found' });
    });

    it("refuses users on an integration's own operation", async () => {
      await expect(
        guardFor(child({ integration: true, only: true }), user, policy).check(),
      ).rejects.toMatchObject({
        kind: 'forbidden',
        message: "Only the integration's own token may do this.",
      });
    });
  });
});
