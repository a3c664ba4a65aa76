import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { mayHoldUsers } from './email-privacy.interceptor';

const document = {
  components: {
    schemas: {
      User: {
        type: 'object',
        properties: { object: { type: 'string', enum: ['user'] }, email: { type: 'string' } },
      },
      Space: { type: 'object', properties: { object: { type: 'string', enum: ['space'] } } },
      Comment: {
        type: 'object',
        properties: { postedBy: { allOf: [{ $ref: '#/components/schemas/User' }] } },
      },
      Tree: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
      },
      Settings: { type: 'object', additionalProperties: true },
    },
  },
} as unknown as OpenAPIObject;

const answering = (schema: object | undefined, status = '200', type = 'application/json') =>
  ({
    responses: {
      [status]: { description: '', content: schema ? { [type]: { schema } } : undefined },
      '404': { description: '', content: { 'application/json': { schema: { type: 'object' } } } },
    },
  }) as unknown as OperationObject;

describe('mayHoldUsers', () => {
  it('finds a user however deep: a reference, an array of them, in allOf, in a map', () => {
    expect(mayHoldUsers(answering({ $ref: '#/components/schemas/User' }), document)).toBe(true);
    const list = {
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Comment' } } },
    };
    expect(mayHoldUsers(answering(list), document)).toBe(true);
    const byId = { type: 'object', additionalProperties: { $ref: '#/components/schemas/User' } };
    expect(mayHoldUsers(answering(byId), document)).toBe(true);
  });

  it('answers no for answers without users, recursive ones and free-form objects included', () => {
    expect(mayHoldUsers(answering({ $ref: '#/components/schemas/Space' }), document)).toBe(false);
    expect(mayHoldUsers(answering({ $ref: '#/components/schemas/Tree' }), document)).toBe(false);
    expect(mayHoldUsers(answering({ $ref: '#/components/schemas/Settings' }), document)).toBe(
      false,
    );
    expect(mayHoldUsers(answering({ type: 'string' }), document)).toBe(false);
  });

  it('answers no for answers that are not JSON or have no body', () => {
    const stream = answering({ $ref: '#/components/schemas/User' }, '200', 'text/event-stream');
    expect(mayHoldUsers(stream, document)).toBe(false);
    expect(mayHoldUsers(answering(undefined, '204'), document)).toBe(false);
    expect(mayHoldUsers(answering(undefined, '302'), document)).toBe(false);
  });

  it('takes what it cannot see for a yes: a success without content, or no operation', () => {
    expect(mayHoldUsers(answering(undefined, '200'), document)).toBe(true);
    expect(mayHoldUsers(answering(undefined, '201'), document)).toBe(true);
    expect(mayHoldUsers(undefined, document)).toBe(true);
  });
});
