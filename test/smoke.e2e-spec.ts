import { createTestApp, TestApp } from './helpers/app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates a user and reads it', async () => {
    const user = await t.factories.user();
    const res = await user.client.get('/v1/user').expect(200);
    expect(res.body.id).toBe(user.id);
    const org = await t.factories.organization({ owner: user });
    const got = await user.client.get(`/v1/orgs/${org.id}`);
    console.log(got.status, JSON.stringify(got.body));
  });
});
