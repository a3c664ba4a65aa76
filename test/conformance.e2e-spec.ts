import { expectConforms, gitbookSchemaFor, listGitbookOperationIds } from './helpers/conformance';

const user = {
  object: 'user',
  id: 'u1',
  displayName: 'A',
  urls: { location: 'http://x/v1/users/u1' },
};

const permissions = {
  view: true,
  admin: true,
  ownTeam: false,
  createContent: true,
  createOpenAPISpec: true,
  ingestConversations: false,
  viewBilling: true,
  listMembers: true,
  listTeams: true,
  listIntegrations: true,
  listInstallations: true,
  installIntegration: true,
};

const organization = {
  object: 'organization',
  id: 'o1',
  title: 'Acme',
  createdAt: '2024-01-01T00:00:00.000Z',
  emailDomains: [],
  type: 'business',
  inviteLinks: false,
  plan: 'free',
  mergeRules: { type: 'none' },
  urls: { location: 'http://x/v1/orgs/o1', app: 'http://x/o/o1' },
  trial: { status: 'none', count: 0 },
  permissions,
};

const ok = (body: unknown) => ({ status: 200, body });

function messageOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

describe('GitBook conformance helper', () => {
  it('lists operation ids from the spec', () => {
    const ids = listGitbookOperationIds();
    expect(ids).toContain('getAuthenticatedUser');
    expect(ids).not.toContain('createOrganization');
  });

  describe('getAuthenticatedUser', () => {
    it('accepts a minimal User', () => {
      expect(() => expectConforms(ok(user), 'getAuthenticatedUser')).not.toThrow();
    });

    it('names a missing required property', () => {
      const { displayName: _omitted, ...body } = user;
      expect(() => expectConforms(ok(body), 'getAuthenticatedUser')).toThrow(/displayName/);
    });

    it('rejects a wrong object discriminator', () => {
      expect(() =>
        expectConforms(ok({ ...user, object: 'member' }), 'getAuthenticatedUser'),
      ).toThrow(/\/object must be equal to one of the allowed values \["user"\]/);
    });

    it('reports operation, status, error and body in the message', () => {
      const body = { ...user, urls: { location: 'not a uri' } };
      const message = messageOf(() => expectConforms(ok(body), 'getAuthenticatedUser'));
      expect(message).toContain('getAuthenticatedUser → HTTP 200');
      expect(message).toContain('/urls/location must match format "uri"');
      expect(message).toContain('Body: {"object":"user"');
    });
  });

  describe('getOrganizationById', () => {
    it('accepts an Organization with every required field', () => {
      expect(() => expectConforms(ok(organization), 'getOrganizationById')).not.toThrow();
    });

    it('reads OpenAPI 3.0 `nullable` next to a $ref as allowing null', () => {
      const messageFor = (endDate: unknown) =>
        messageOf(() =>
          expectConforms(ok({ ...organization, billing: { endDate } }), 'getOrganizationById'),
        );
      expect(messageFor(null)).toContain('/billing must have required property');
      expect(messageFor(null)).not.toContain('/billing/endDate');
      expect(messageFor('yesterday')).toContain('/billing/endDate must match format "date-time"');
    });

    it('rejects a missing permission boolean', () => {
      const { installIntegration: _omitted, ...partial } = permissions;
      const body = { ...organization, permissions: partial };
      expect(() => expectConforms(ok(body), 'getOrganizationById')).toThrow(
        /\/permissions must have required property 'installIntegration'/,
      );
    });

    it('checks 404 against the NotFoundError response (code must be 404)', () => {
      const notFound = { status: 404, body: { error: { code: 404, message: 'x' } } };
      expect(() => expectConforms(notFound, 'getOrganizationById')).not.toThrow();

      const wrongCode = { status: 404, body: { error: { code: 400, message: 'x' } } };
      expect(() => expectConforms(wrongCode, 'getOrganizationById')).toThrow(/\/error\/code/);
    });

    it('exposes the one-level-resolved schema', () => {
      expect(gitbookSchemaFor('getOrganizationById', 200)).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['permissions', 'trial', 'urls']),
      });
    });
  });

  describe('listOrganizationsForAuthenticatedUser', () => {
    it('accepts an empty page without next', () => {
      const body = { items: [], count: 0 };
      expect(() => expectConforms(ok(body), 'listOrganizationsForAuthenticatedUser')).not.toThrow();
    });

    it('validates the items', () => {
      const body = { items: [{ ...organization, plan: 'gold' }], count: 1 };
      expect(() => expectConforms(ok(body), 'listOrganizationsForAuthenticatedUser')).toThrow(
        /\/items\/0\/plan must be equal to one of the allowed values/,
      );
    });
  });

  describe('responses without a JSON body', () => {
    it('accepts an empty 204 and rejects a body', () => {
      expect(() => expectConforms({ status: 204, body: {} }, 'deleteSpaceById')).not.toThrow();
      expect(() => expectConforms({ status: 204, body: '' }, 'deleteSpaceById')).not.toThrow();
      expect(() => expectConforms({ status: 204, body: { id: 's1' } }, 'deleteSpaceById')).toThrow(
        /declares no JSON body/,
      );
    });
  });

  describe('lookup failures', () => {
    it('throws on an unknown operationId', () => {
      expect(() => expectConforms(ok({}), 'createOrganization')).toThrow(
        /Unknown GitBook operationId "createOrganization"/,
      );
    });

    it('throws on an undeclared status', () => {
      expect(() => expectConforms({ status: 500, body: {} }, 'getAuthenticatedUser')).toThrow(
        /declares no 500 response for getAuthenticatedUser \(declared: 200, 404\)/,
      );
    });
  });
});
