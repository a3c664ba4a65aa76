import { createTestApp, TestApp } from '../helpers/app';

describe('lists: page and limit', () => {
  let t: TestApp;
  let ids: string[];
  beforeAll(async () => {
    t = await createTestApp();
    ids = [];
    for (let i = 0; i < 5; i++) {
      // Distinct creation times, so the expected order is known.
      t.clock.set(new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
      ids.push((await t.factories.user()).id);
    }
  });
  afterAll(() => t.close());

  it('walks three pages with count, next and no repeats, newest first', async () => {
    const first = await t.admin.get('/v1/admin/users?limit=2').expect(200);
    expect(first.body.count).toBe(5);
    expect(first.body.items.map((u: { id: string }) => u.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.next.page).toEqual(expect.any(String));

    const second = await t.admin
      .get(`/v1/admin/users?limit=2&page=${first.body.next.page}`)
      .expect(200);
    expect(second.body.items.map((u: { id: string }) => u.id)).toEqual([ids[2], ids[1]]);
    expect(second.body.count).toBe(5);

    const third = await t.admin
      .get(`/v1/admin/users?limit=2&page=${second.body.next.page}`)
      .expect(200);
    expect(third.body.items.map((u: { id: string }) => u.id)).toEqual([ids[0]]);
    expect(third.body).not.toHaveProperty('next');
  });

  it('defaults to 20 items per page', async () => {
    const res = await t.admin.get('/v1/admin/users').expect(200);
    expect(res.body.items).toHaveLength(5);
    expect(res.body).not.toHaveProperty('next');
  });

  it.each(['1001', '0', '-1', 'abc', '1.5'])('refuses limit=%s with 400', async (limit) => {
    const res = await t.admin.get(`/v1/admin/users?limit=${limit}`).expect(400);
    expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining('limit') } });
  });

  it('accepts limit=1000', async () => {
    await t.admin.get('/v1/admin/users?limit=1000').expect(200);
  });

  it('refuses a forged or foreign page identifier with 400', async () => {
    const res = await t.admin.get('/v1/admin/users?page=bm90LWEtY3Vyc29y').expect(400);
    expect(res.body.error.message).toMatch(/page/);
    const owner = await t.factories.user();
    await t.factories.organization({ owner });
    await t.factories.organization({ owner });
    const orgs = await owner.client.get('/v1/orgs?limit=1').expect(200);
    // A cursor of the organizations list means nothing to the users list.
    await t.admin.get(`/v1/admin/users?page=${orgs.body.next.page}`).expect(400);
  });

  it('refuses unknown query parameters with 400', async () => {
    await t.admin.get('/v1/admin/users?sort=bogus').expect(400);
  });
});
