import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Site insights: the public route GitBook's renderer sends events to, kept as daily counters
 * with nothing personal, and the aggregation members read them with.
 */

/** What a visitor's event carries that Bindery must never store. */
const PERSONAL = {
  ip: '203.0.113.77',
  userAgent: 'Mozilla/5.0 (PersonalAgent 9.9)',
  visitorId: 'visitor-personal-id',
  sessionId: 'session-personal-id',
  cookie: 'cookie-personal-value',
  claim: 'jane.doe@example.com',
  referrer: 'https://referrer.example/personal',
  url: 'https://docs.example.com/guide?token=url-personal-token',
  query: 'personal search query',
  comment: 'personal feedback comment',
};

interface Located {
  siteSpace?: string | null;
  space?: string | null;
  page?: string | null;
}

/** A `SiteInsightsEvent` as the renderer sends it, with the whole session. */
function event(type: string, at: Located = {}, extra: object = {}): object {
  return {
    type,
    session: {
      visitorId: PERSONAL.visitorId,
      sessionId: PERSONAL.sessionId,
      ip: PERSONAL.ip,
      userAgent: PERSONAL.userAgent,
      language: 'fr-FR',
      referrer: PERSONAL.referrer,
      cookies: { tracking: PERSONAL.cookie },
      visitorAuthClaims: { email: PERSONAL.claim },
    },
    location: {
      url: PERSONAL.url,
      displayContext: 'site',
      siteSection: null,
      siteSpace: at.siteSpace ?? null,
      siteShareKey: null,
      space: at.space ?? null,
      revision: null,
      page: at.page ?? null,
    },
    ...extra,
  };
}

describe('site insights', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(new Date()));

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const eventsPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/insights/events`;
  const aggregatePath = (org: TestOrganization, siteId: string) =>
    `${eventsPath(org, siteId)}/aggregate`;

  /** A published site with one site space; `at(page)` locates an event on a page of it. */
  async function publishedSite(options: { publish?: boolean } = {}) {
    const org = await t.factories.organization();
    const site = await t.factories.site(org);
    const siteSpace = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guide' });
    if (options.publish !== false) {
      await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
    }
    const at = (page: string | null): Located => ({
      siteSpace: siteSpace.id,
      space: siteSpace.space.id,
      page,
    });
    return { org, siteId: site.id, siteSpace, at };
  }

  const track = (org: TestOrganization, siteId: string, events: object[]) =>
    t.anonymous.post(eventsPath(org, siteId), { events });

  const aggregate = (by: Client, org: TestOrganization, siteId: string, body: object) =>
    by.post(aggregatePath(org, siteId), body);

  describe('trackEventsInSiteById', () => {
    it('counts page views per page without a token; the aggregation shows them', async () => {
      const { org, siteId, siteSpace, at } = await publishedSite();
      const res = await track(org, siteId, [
        event('page_view', at('page-a')),
        event('page_view', at('page-a')),
        event('page_view', at('page-b')),
        event('search_open', at(null)),
      ]).expect(204);
      expectConforms(res, 'trackEventsInSiteById', GITBOOK_0201);
      await track(org, siteId, [event('page_view', at('page-a'))]).expect(204);

      const views = await aggregate(org.owner.client, org, siteId, {
        range: 'last24Hours',
        where: [{ column: 'eventType', values: ['page_view'] }],
        groupBy: [{ column: 'page' }],
        select: [{ column: 'eventsCount' }],
      }).expect(200);
      expectConforms(views, 'aggregateSiteEvents', GITBOOK_0201);
      expect(views.body).toEqual({
        columns: [
          {
            column: 'page',
            values: [
              { page: 'page-a', space: siteSpace.space.id },
              { page: 'page-b', space: siteSpace.space.id },
            ],
          },
          { column: 'eventsCount', values: [3, 1] },
        ],
      });
    });

    it('stores no personal data: no address, agent, visitor, session, URL or text', async () => {
      const { org, siteId, at } = await publishedSite();
      await track(org, siteId, [
        event('page_view', at('page-a')),
        event('search_type_query', at(null), { query: PERSONAL.query }),
        event('search_open_result', at(null), {
          query: PERSONAL.query,
          result: { spaceId: 'space', pageId: 'page-a' },
        }),
        event('page_post_feedback_comment', at('page-a'), {
          feedback: { rating: 'bad', comment: PERSONAL.comment },
        }),
        event('ask_rate_response', at(null), {
          query: PERSONAL.query,
          rating: -1,
          responseId: 'answer-1',
        }),
        event('link_click', at('page-a'), {
          link: { target: { kind: 'url', url: PERSONAL.referrer }, position: 'content' },
        }),
      ]).expect(204);

      const rows: { row: string }[] = await t.dataSource.query(
        'SELECT row_to_json(c)::text AS row FROM site_insights_counters c WHERE site_id = $1',
        [siteId],
      );
      expect(rows.length).toBeGreaterThan(0);
      const stored = rows.map((r) => r.row).join('\n');
      for (const value of Object.values(PERSONAL)) expect(stored).not.toContain(value);
      const columns: { column_name: string }[] = await t.dataSource.query(
        `SELECT column_name FROM information_schema.columns
          WHERE table_name = 'site_insights_counters' ORDER BY column_name`,
      );
      expect(columns.map((c) => c.column_name)).toEqual([
        'count',
        'day',
        'event_type',
        'page_id',
        'rating',
        'site_id',
        'site_space_id',
        'space_id',
      ]);
    });

    it('counts feedback and answer ratings', async () => {
      const { org, siteId, at } = await publishedSite();
      const feedback = (rating: string) =>
        event('page_post_feedback', at('page-a'), { feedback: { rating } });
      await track(org, siteId, [
        feedback('good'),
        feedback('good'),
        feedback('ok'),
        feedback('bad'),
        event('ask_rate_response', at(null), { query: 'q', rating: 1, responseId: 'r' }),
      ]).expect(204);
      const res = await aggregate(org.owner.client, org, siteId, {
        range: 'last7Days',
        select: [{ column: 'pageFeedbackRating' }, { column: 'askResponseRating' }],
      }).expect(200);
      expectConforms(res, 'aggregateSiteEvents', GITBOOK_0201);
      expect(res.body.columns).toEqual([
        { column: 'pageFeedbackRating', values: [{ bad: 1, ok: 1, good: 2 }] },
        { column: 'askResponseRating', values: [{ positive: 1, negative: 0 }] },
      ]);
    });

    it('ignores events over a day old, from the future, and of unknown types; dates them by their time', async () => {
      const { org, siteId, at } = await publishedSite();
      t.clock.set('2026-03-10T00:02:00.000Z');
      await track(org, siteId, [
        event('page_view', at('page-a'), { timestamp: '2026-03-09T23:59:00.000Z' }),
        event('page_view', at('page-a'), { timestamp: '2026-03-10T00:01:00.000Z' }),
        event('page_view', at('page-a'), { timestamp: '2026-03-10T00:05:00.000Z' }),
        event('page_view', at('page-a'), { timestamp: '2026-03-08T23:00:00.000Z' }),
        event('page_view', at('page-a'), { timestamp: '2026-03-10T00:30:00.000Z' }),
        { type: 'page_view_from_the_future_api', anything: { goes: true } },
      ]).expect(204);
      const res = await aggregate(org.owner.client, org, siteId, {
        range: { from: '2026-03-01T00:00:00Z', to: '2026-03-11T00:00:00Z' },
        groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'eventType' }],
      }).expect(200);
      expectConforms(res, 'aggregateSiteEvents', GITBOOK_0201);
      expect(res.body.columns).toEqual([
        {
          column: 'datetime',
          values: ['2026-03-09T00:00:00.000Z', '2026-03-10T00:00:00.000Z'],
        },
        { column: 'eventType', values: ['page_view', 'page_view'] },
        { column: 'eventsCount', values: [1, 2] },
      ]);
    });

    it("counts an event of another site's site space for the site alone, without its page", async () => {
      const { org, siteId, at } = await publishedSite();
      const other = await publishedSite();
      await track(org, siteId, [
        event('page_view', { ...other.at('their-page') }),
        event('page_view', { siteSpace: 'unknownSiteSpace', page: 'p' }),
        event('page_view', at('page-a')),
      ]).expect(204);
      const res = await aggregate(org.owner.client, org, siteId, {
        range: 'last24Hours',
        groupBy: [{ column: 'siteSpace' }, { column: 'page' }],
        order: { by: { column: 'eventsCount' }, direction: 'desc' },
      }).expect(200);
      expectConforms(res, 'aggregateSiteEvents', GITBOOK_0201);
      const counts = res.body.columns.find(
        (c: { column: string }) => c.column === 'eventsCount',
      ).values;
      const pages = res.body.columns.find((c: { column: string }) => c.column === 'page').values;
      expect(counts).toEqual([2, 1]);
      expect(pages[0]).toBeNull();
      expect(pages[1]).toEqual({ page: 'page-a', space: expect.any(String) });
    });

    it.each([
      ['a body without events', {}, /events is required/],
      ['events that are not a list', { events: 'page_view' }, /events must be an array/],
      [
        'more than 100 events',
        { events: Array.from({ length: 101 }, () => event('page_view')) },
        /events must contain no more than 100 elements/,
      ],
      ['an event that is not an object', { events: [42] }, /events/],
      [
        'an event without a location',
        { events: [{ type: 'page_view', session: {} }] },
        /events\.0\.location is required/,
      ],
      [
        'a location without its URL',
        { events: [{ type: 'page_view', location: { page: 'p' } }] },
        /events\.0\.location\.url is required/,
      ],
      [
        'a bad timestamp',
        { events: [event('page_view', {}, { timestamp: 'yesterday' })] },
        /events\.0\.timestamp must be RFC 3339 date/,
      ],
      [
        'a timestamp that is a week, not a date-time',
        { events: [event('page_view', {}, { timestamp: '2026-W10-2' })] },
        /events\.0\.timestamp must be RFC 3339 date/,
      ],
      [
        'a bad feedback rating',
        { events: [event('page_post_feedback', {}, { feedback: { rating: 'great' } })] },
        /events\.0\.feedback\.rating must be one of/,
      ],
      [
        'an event without a type',
        { events: [{ location: { url: 'https://docs.example.com' } }] },
        /events\.0\.type is required/,
      ],
    ])('answers 400 to %s', async (_, body, message) => {
      const { org, siteId } = await publishedSite();
      const res = await t.anonymous.post(eventsPath(org, siteId), body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
    });

    it('answers 404 for an unknown site, a site of another organization and an unpublished site', async () => {
      const { org, siteId, at } = await publishedSite();
      const unpublished = await publishedSite({ publish: false });
      const other = await t.factories.organization();
      const batch = [event('page_view', at('page-a'))];

      const unknown = await track(org, 'unknownSite', batch).expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Site not found.' } });
      await track(other, siteId, batch).expect(404);
      await track(unpublished.org, unpublished.siteId, batch).expect(404);
      // Even with nothing to count, and whoever calls.
      await track(unpublished.org, unpublished.siteId, []).expect(404);
      await unpublished.org.owner.client
        .post(eventsPath(unpublished.org, unpublished.siteId), { events: batch })
        .expect(404);
      // Unpublishing stops the counting.
      await org.owner.client.post(`${sitePath(org, siteId)}/unpublish`).expect(200);
      await track(org, siteId, batch).expect(404);
      const rows = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM site_insights_counters WHERE site_id = ANY($1)',
        [[siteId, unpublished.siteId]],
      );
      expect(rows[0].n).toBe(0);
    });
  });

  describe('aggregateSiteEvents', () => {
    it('answers per day, week and month, per day of the week, and totals', async () => {
      const { org, siteId, at } = await publishedSite();
      for (const [time, count] of [
        ['2026-02-27T10:00:00Z', 1], // a Friday
        ['2026-03-02T10:00:00Z', 2], // the Monday after
        ['2026-03-03T10:00:00Z', 3],
      ] as const) {
        t.clock.set(time);
        await track(
          org,
          siteId,
          Array.from({ length: count }, () => event('page_view', at('page-a'))),
        ).expect(204);
      }
      t.clock.set('2026-03-04T12:00:00Z');
      const query = (body: object) =>
        aggregate(org.owner.client, org, siteId, { range: 'last30Days', ...body }).expect(200);

      const total = await query({});
      expectConforms(total, 'aggregateSiteEvents', GITBOOK_0201);
      expect(total.body).toEqual({ columns: [{ column: 'eventsCount', values: [6] }] });

      const weeks = await query({ groupBy: [{ column: 'datetime', interval: 'week' }] });
      expect(weeks.body.columns).toEqual([
        { column: 'datetime', values: ['2026-02-23T00:00:00.000Z', '2026-03-02T00:00:00.000Z'] },
        { column: 'eventsCount', values: [1, 5] },
      ]);
      const months = await query({
        select: [{ column: 'eventsCount' }, { column: 'datetime', interval: 'month' }],
        groupBy: [{ column: 'datetime', interval: 'month' }],
        order: { by: { column: 'datetime' }, direction: 'desc' },
      });
      expectConforms(months, 'aggregateSiteEvents', GITBOOK_0201);
      expect(months.body.columns).toEqual([
        { column: 'eventsCount', values: [5, 1] },
        { column: 'datetime', values: ['2026-03-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'] },
      ]);
      const weekdays = await query({ groupBy: [{ column: 'dayOfWeek' }] });
      expect(weekdays.body.columns).toEqual([
        { column: 'dayOfWeek', values: [1, 2, 5] },
        { column: 'eventsCount', values: [2, 3, 1] },
      ]);
      const limited = await query({
        groupBy: [{ column: 'datetime' }],
        order: { by: { column: 'eventsCount' }, direction: 'desc' },
        limit: 1,
      });
      expect(limited.body.columns).toEqual([
        { column: 'datetime', values: ['2026-03-03T00:00:00.000Z'] },
        { column: 'eventsCount', values: [3] },
      ]);
      const lastDay = await query({ range: 'last24Hours' });
      expect(lastDay.body.columns).toEqual([{ column: 'eventsCount', values: [3] }]);
      const empty = await query({
        range: { from: '2025-01-01T00:00:00Z', to: '2025-01-31T00:00:00Z' },
        groupBy: [{ column: 'page' }],
      });
      expect(empty.body.columns).toEqual([
        { column: 'page', values: [] },
        { column: 'eventsCount', values: [] },
      ]);
    });

    it('filters on event types, site spaces and pages, in and not in', async () => {
      const { org, siteId, siteSpace, at } = await publishedSite();
      await track(org, siteId, [
        event('page_view', at('page-a')),
        event('page_view', at('page-b')),
        event('link_click', at('page-a'), {
          link: { target: { kind: 'url', url: 'https://x.example' }, position: 'content' },
        }),
        event('search_open'),
      ]).expect(204);
      const count = async (where: object[]) =>
        (
          await aggregate(org.owner.client, org, siteId, { range: 'last24Hours', where }).expect(
            200,
          )
        ).body.columns[0].values[0];
      const pageA = { page: 'page-a', space: siteSpace.space.id };
      expect(await count([{ column: 'page', values: [pageA] }])).toBe(2);
      expect(await count([{ column: 'page', values: [pageA], operator: 'notIn' }])).toBe(2);
      expect(await count([{ column: 'page', values: [null] }])).toBe(1);
      expect(await count([{ column: 'siteSpace', values: [siteSpace.id] }])).toBe(3);
      expect(
        await count([
          { column: 'eventType', values: ['page_view', 'link_click'] },
          { column: 'siteSpace', values: [null], operator: 'notIn' },
        ]),
      ).toBe(3);
      expect(await count([{ column: 'eventType', values: ['page_view'], operator: 'notIn' }])).toBe(
        2,
      );
    });

    it.each([
      ['no range', {}, /range is required/],
      ['an unknown range', { range: 'lastDecade' }, /range must be one of/],
      [
        'a range that ends before it starts',
        { range: { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' } },
        /range.from must not be after range.to/,
      ],
      [
        'a grouping by visitors',
        { range: 'last7Days', select: [{ column: 'visitorsCount' }] },
        /visitorsCount cannot be selected: Bindery keeps only daily counts/,
      ],
      [
        'a grouping by URL',
        { range: 'last7Days', groupBy: [{ column: 'url' }] },
        /url cannot be grouped by/,
      ],
      [
        'a grouping by hour',
        { range: 'last7Days', groupBy: [{ column: 'datetime', interval: 'hour' }] },
        /datetime cannot be grouped by hour/,
      ],
      [
        'a filter on search queries',
        { range: 'last7Days', where: [{ column: 'eventSearchQuery', values: ['x'] }] },
        /where.0: eventSearchQuery cannot be filtered on/,
      ],
      [
        'a comparison on event types',
        {
          range: 'last7Days',
          where: [{ column: 'eventType', values: ['page_view'], operator: 'greaterThan' }],
        },
        /where.0: eventType takes the operators in and notIn/,
      ],
      [
        'an unknown event type',
        { range: 'last7Days', where: [{ column: 'eventType', values: ['page_visit'] }] },
        /where.0.values must be event types/,
      ],
      [
        'an unknown column',
        { range: 'last7Days', groupBy: [{ column: 'country' }] },
        /groupBy.0.column must be one of/,
      ],
      [
        'a selected dimension that is not grouped',
        { range: 'last7Days', select: [{ column: 'page' }] },
        /select names page, which groupBy does not/,
      ],
      [
        'an order by a column not in the answer',
        { range: 'last7Days', order: { by: { column: 'page' }, direction: 'asc' } },
        /order.by must be a column of the answer/,
      ],
      ['a limit over 1000', { range: 'last7Days', limit: 1001 }, /limit must not be greater/],
    ])('answers 400 to %s', async (_, body, message) => {
      const { org, siteId } = await publishedSite();
      const res = await aggregate(org.owner.client, org, siteId, body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
    });

    it('answers 404 for an unknown site or a caller of another organization, 403 to a guest', async () => {
      const { org, siteId } = await publishedSite();
      const body = { range: 'last7Days' };
      const unknown = await aggregate(org.owner.client, org, 'unknownSite', body).expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Site not found.' } });
      const stranger = await t.factories.organization();
      await aggregate(stranger.owner.client, org, siteId, body).expect(404);
      await aggregate(stranger.owner.client, stranger, siteId, body).expect(404);
      await aggregate(t.anonymous, org, siteId, body).expect(401);
      const guest = await t.factories.asMember(org, null);
      const refused = await aggregate(guest, org, siteId, body).expect(403);
      expect(refused.body.error.code).toBe(403);
      const reader = await t.factories.asMember(org, 'read');
      await aggregate(reader, org, siteId, body).expect(200);
    });
  });
});
