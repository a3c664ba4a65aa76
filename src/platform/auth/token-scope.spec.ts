import type { ResolvedAccess } from '../policy/access';
import type { TokenScope } from './actor';
import { resourceRefusal, routeRefusal, seesResource } from './token-scope';

const scope = (fields: Partial<TokenScope>): TokenScope => ({
  access: 'read-write',
  organization: null,
  spaces: null,
  sites: null,
  ...fields,
});
const access = (fields: Partial<ResolvedAccess>): ResolvedAccess => ({
  resource: 'organization',
  id: 'x',
  organizationId: 'o1',
  role: 'admin',
  ...fields,
});
const onSpace = {
  kind: 'resource',
  resource: 'organization',
  param: 'spaceId',
  need: 'edit',
} as const;

describe('token scopes', () => {
  it('a read-only token reads, and POSTs only where the route only reads', () => {
    const readOnly = scope({ access: 'read-only' });
    expect(routeRefusal(readOnly, 'GET', onSpace)).toBeNull();
    expect(routeRefusal(readOnly, 'HEAD', { kind: 'user' })).toBeNull();
    expect(routeRefusal(readOnly, 'POST', onSpace)?.code).toBe('TokenReadOnly');
    expect(routeRefusal(readOnly, 'DELETE', { kind: 'user' })?.code).toBe('TokenReadOnly');
    expect(routeRefusal(readOnly, 'POST', { ...onSpace, reads: true })).toBeNull();
  });

  it('a token of one organization calls only the account routes declared for it', () => {
    const limited = scope({ organization: 'o1' });
    expect(routeRefusal(limited, 'GET', { kind: 'user' })?.code).toBe('TokenOutOfScope');
    expect(routeRefusal(limited, 'GET', { kind: 'user', limitedTokens: true })).toBeNull();
    expect(routeRefusal(scope({}), 'GET', { kind: 'user' })).toBeNull();
  });

  it('refuses writes that reach further than the token', () => {
    const organization = scope({ organization: 'o1' });
    const spaces = scope({ organization: 'o1', spaces: ['s1'] });
    const transfer = { ...onSpace, reaches: 'otherOrganizations' } as const;
    const move = { ...onSpace, reaches: 'organization' } as const;
    expect(routeRefusal(organization, 'POST', transfer)?.code).toBe('TokenOutOfScope');
    expect(routeRefusal(organization, 'POST', move)).toBeNull();
    expect(routeRefusal(spaces, 'POST', move)?.code).toBe('TokenOutOfScope');
    expect(routeRefusal(scope({}), 'POST', transfer)).toBeNull();
  });

  it('sees resources of its organization, and of its spaces and sites only', () => {
    const spaces = scope({ organization: 'o1', spaces: ['s1'] });
    expect(seesResource(scope({ organization: 'o1' }), access({}))).toBe(true);
    expect(seesResource(scope({ organization: 'o2' }), access({}))).toBe(false);
    expect(seesResource(spaces, access({ spaceId: 's1' }))).toBe(true);
    expect(seesResource(spaces, access({ spaceId: 's2' }))).toBe(false);
    expect(seesResource(spaces, access({ siteId: 'w1' }))).toBe(false);
    expect(
      seesResource(scope({ organization: 'o1', sites: ['w1'] }), access({ siteId: 'w1' })),
    ).toBe(true);
  });

  it('refuses a route whose resource is in no space or site to a token limited to some', () => {
    const spaces = scope({ organization: 'o1', spaces: ['s1'] });
    expect(resourceRefusal(spaces, access({}))?.code).toBe('TokenOutOfScope');
    expect(resourceRefusal(spaces, access({ spaceId: 's1' }))).toBeNull();
    expect(resourceRefusal(scope({ organization: 'o1' }), access({}))).toBeNull();
  });
});
