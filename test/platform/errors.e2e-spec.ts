import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { IsInt, IsString, Max } from 'class-validator';
import { Access } from '../../src/platform/auth/access.decorator';
import { createTestApp, TestApp } from '../helpers/app';

class EchoDto {
  @IsString()
  name!: string;

  @IsInt()
  @Max(10)
  size!: number;
}

@Controller('test-errors')
class FailingController {
  @Get('crash')
  @Access.public()
  crash(): never {
    throw new Error('connection string postgres://secret@db leaked');
  }

  @Post('echo')
  @Access.public()
  echo(@Body() body: EchoDto): EchoDto {
    return body;
  }
}

@Module({ controllers: [FailingController] })
class FailingModule {}

function expectErrorShape(body: unknown, status: number): void {
  expect(body).toEqual({ error: { code: status, message: expect.any(String) } });
}

describe('errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT: '1kb' }, { modules: [FailingModule] });
  });
  afterAll(() => t.close());

  it('answers an unknown route with 404 in the error shape', async () => {
    const res = await t.anonymous.get('/v1/no-such-route').expect(404);
    expectErrorShape(res.body, 404);
    expect(res.body.error.message).toBe('No route GET /v1/no-such-route.');
  });

  it('answers a malformed JSON body with 400', async () => {
    const res = await t.anonymous
      .post('/v1/test-errors/echo')
      .set('Content-Type', 'application/json')
      .send('{"name": "a",')
      .expect(400);
    expectErrorShape(res.body, 400);
    expect(res.body.error.message).toMatch(/not valid JSON/);
  });

  it('answers a body over BODY_LIMIT with 413', async () => {
    const res = await t.anonymous
      .post('/v1/test-errors/echo')
      .send({ name: 'x'.repeat(2048), size: 1 })
      .expect(413);
    expectErrorShape(res.body, 413);
  });

  it('refuses a body nested too deep with 400, not a stack overflow', async () => {
    // 300 levels: past the limit and still under this app's 1kb BODY_LIMIT.
    const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
    const res = await t.anonymous
      .post('/v1/test-errors/echo')
      .set('Content-Type', 'application/json')
      .send(`{"name":"a","size":1,"junk":${deep}}`)
      .expect(400);
    expectErrorShape(res.body, 400);
    expect(res.body.error.message).toMatch(/nested deeper/);
  });

  it('names the failing fields of a validation error', async () => {
    const res = await t.anonymous
      .post('/v1/test-errors/echo', { name: 3, size: 11, extra: true })
      .expect(400);
    expectErrorShape(res.body, 400);
    expect(res.body.error.message).toContain('name must be a string');
    expect(res.body.error.message).toContain('size must not be greater than 10');
    expect(res.body.error.message).toContain('property extra should not exist');
  });

  it('accepts a valid body (the validation route is real)', async () => {
    const res = await t.anonymous.post('/v1/test-errors/echo', { name: 'a', size: 2 }).expect(201);
    expect(res.body).toEqual({ name: 'a', size: 2 });
  });

  it('answers an unexpected failure with 500, the request id and no internals', async () => {
    const res = await t.anonymous
      .get('/v1/test-errors/crash')
      .set('X-Request-Id', 'trace-abc-123')
      .expect(500);
    expectErrorShape(res.body, 500);
    expect(res.body.error.message).toContain('trace-abc-123');
    expect(res.body.error.message).not.toMatch(/postgres|secret|Error/);
    expect(res.headers['x-request-id']).toBe('trace-abc-123');
  });

  it('makes a request id when the client sends none, or an unusable one', async () => {
    const plain = await t.anonymous.get('/health').expect(200);
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const weird = await t.anonymous
      .get('/health')
      .set('X-Request-Id', 'has spaces and <tags>')
      .expect(200);
    expect(weird.headers['x-request-id']).not.toBe('has spaces and <tags>');
  });
});
