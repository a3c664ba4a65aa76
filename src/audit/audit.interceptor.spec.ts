import type { ActorUser } from '../platform/auth/actor';
import { AUDITED_OPERATIONS } from './audit-actions';
import { describeWrite } from './audit.interceptor';

const user: ActorUser = {
  id: 'u1',
  email: 'ada@example.com',
  displayName: 'Ada',
  photoUrl: null,
  disabled: false,
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

function request(fields: Record<string, unknown>) {
  return {
    method: 'POST',
    headers: { 'user-agent': 'test' },
    ip: '127.0.0.1',
    id: 'req-1',
    params: {},
    body: {},
    actor: { kind: 'user', userId: 'u1', user, tokenId: 't1', tokenHash: 'h', scope: null },
    ...fields,
  } as unknown as Parameters<typeof describeWrite>[0];
}

const operation = (id: string) => ({ id, ...AUDITED_OPERATIONS.get(id)! });
const granted = (resource: string, id: string, entity?: object) =>
  ({ resource, id, organizationId: 'o1', role: 'admin', entity }) as never;

describe('describeWrite', () => {
  it('names a created reply by the answer, not by the comment of the path', () => {
    const event = describeWrite(
      request({ params: { spaceId: 's1', commentId: 'c1' }, granted: granted('space', 's1') }),
      operation('postCommentReplyInSpace'),
      { object: 'comment-reply', id: 'r1' },
    );
    expect(event).toMatchObject({
      organizationId: 'o1',
      action: 'space.comment.reply-created',
      targetType: 'comment-reply',
      targetId: 'r1',
      tokenId: 't1',
    });
  });

  it('names an OpenAPI specification by its slug, as the routes that change it do', () => {
    const event = describeWrite(
      request({ params: { organizationId: 'o1' }, granted: granted('organization', 'o1') }),
      operation('createOpenAPISpec'),
      { object: 'openapi-spec', id: 'x1', slug: 'petstore' },
    );
    expect(event).toMatchObject({ targetId: 'petstore', targetLabel: 'petstore' });
  });

  it('labels a deleted resource from what the guard resolved', () => {
    const event = describeWrite(
      request({
        method: 'DELETE',
        params: { spaceId: 's1' },
        granted: granted('space', 's1', { title: 'Doomed' }),
      }),
      operation('deleteSpaceById'),
      undefined,
    );
    expect(event).toMatchObject({ targetId: 's1', targetLabel: 'Doomed', organizationId: 'o1' });
  });

  it('records nothing for an absent resource, nor for a site reader', () => {
    expect(
      describeWrite(
        request({ params: { spaceId: 's1' }, granted: null }),
        operation('deleteSpaceById'),
        undefined,
      ),
    ).toBeNull();
    expect(
      describeWrite(request({ actor: { kind: 'siteVisitor' } }), operation('createSpace'), {}),
    ).toBeNull();
  });

  it('files the administrator’s writes under no organization, the created user as target', () => {
    const event = describeWrite(
      request({ actor: { kind: 'admin', tokenHash: 'h' }, body: { email: 'a@b.c' } }),
      operation('adminCreateUser'),
      { user: { id: 'u9', displayName: 'Bob' }, token: 'bnd_secret' },
    );
    expect(event).toMatchObject({
      organizationId: null,
      actorType: 'support',
      actorId: 'admin',
      tokenId: null,
      targetId: 'u9',
      targetLabel: 'Bob',
      changes: { email: 'a@b.c' },
    });
  });

  it('files a write that names nothing under its caller', () => {
    const event = describeWrite(
      request({}),
      { id: 'doSomething', action: 'x.done', target: 'x' },
      {},
    );
    expect(event).toMatchObject({ targetType: 'x', targetId: 'u1', organizationId: null });
  });
});
