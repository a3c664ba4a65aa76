import { expectError } from './helpers/answers';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { BINDERY_DOCUMENT, expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { insertPage } from './helpers/content';
import { expectEventStream } from './helpers/event-stream';
import type { TestOrganization } from './helpers/factories';
import { defaultReply, type FakeChatServer, startFakeChatServer } from './helpers/fake-chat-server';

/**
 * The limits on answers: questions per minute per visitor and per site (site asks) and per
 * member (organization asks), answered 429 with Retry-After; the prompt's size
 * (AI_MAX_PROMPT_CHARS); the organization's monthly token budget (AI_MONTHLY_TOKEN_BUDGET),
 * counted from the usage the model reports, else estimated; and getOrganizationAIUsage.
 */

const SITES = 'http://docs.localhost/{organization}';
const BUDGET = 1000;
const MAX_PROMPT = 4000;
/** What the fake model reports for each reply unless a test says otherwise. */
const SMALL_USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

interface Limited {
  org: TestOrganization;
  siteId: string;
  siteSpaceId: string;
  /** The site's token for anonymous visitors (one for all of them). */
  visitor: Client;
  /** Two members with the read role. */
  memberA: Client;
  memberB: Client;
}

describe('limits on answers (e2e)', () => {
  let t: TestApp;
  let model: FakeChatServer;

  beforeAll(async () => {
    model = await startFakeChatServer();
    t = await createTestApp({
      SITES_URL: SITES,
      AI_API_URL: model.url,
      AI_MODEL: 'fake-chat',
      AI_ASK_PER_VISITOR_PER_MINUTE: '2',
      AI_ASK_PER_SITE_PER_MINUTE: '3',
      AI_ASK_PER_MEMBER_PER_MINUTE: '2',
      AI_MAX_PROMPT_CHARS: String(MAX_PROMPT),
      AI_MONTHLY_TOKEN_BUDGET: String(BUDGET),
    });
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });
  beforeEach(() => {
    model.reset();
    model.options = { usage: SMALL_USAGE };
  });

  /** An organization with a published site (AI search on) of one space, "Installation" in it. */
  async function limited(installText = 'Install the zephyrine engine with `npm install`.') {
    const org = await t.factories.organization();
    const site = await t.factories.site(org, { title: 'Engine docs' });
    const siteSpace = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guides' });
    await t.factories.changeRequest(org, siteSpace.space.id, {
      changes: [
        insertPage('Installation', installText),
        insertPage('Webhooks', 'Webhooks deliver events.'),
      ],
      merge: true,
    });
    const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
    await org.owner.client.put(`${sitePath}/customization`, { ai: { mode: 'search' } }).expect(200);
    await org.owner.client.post(`${sitePath}/publish`).expect(200);
    const published = await t.anonymous
      .post('/v1/urls/published', { url: `https://docs.localhost/${org.id}/${site.id}` })
      .expect(200);
    return {
      org,
      siteId: site.id,
      siteSpaceId: siteSpace.id,
      visitor: t.as(published.body.apiToken as string),
      memberA: await t.factories.asMember(org, 'read'),
      memberB: await t.factories.asMember(org, 'read'),
    } satisfies Limited;
  }

  /** A site ask; `visitorId` as GitBook's renderer sends it, in the question's session. */
  const siteAsk = (s: Limited, client: Client, visitorId?: string) =>
    client.post(`/v1/orgs/${s.org.id}/sites/${s.siteId}/ask?format=markdown`, {
      question: 'How do I install the zephyrine engine?',
      scope: { mode: 'default', currentSiteSpace: s.siteSpaceId },
      ...(visitorId ? { session: { visitorId, sessionId: `session-${visitorId}` } } : {}),
    });
  const orgAsk = (s: Limited, client: Client) =>
    client.post(`/v1/orgs/${s.org.id}/ask?format=markdown`, {
      query: 'How do I install the zephyrine engine?',
    });
  const usagePath = (orgId: string, from: string, to: string, interval = '') =>
    `/v1/orgs/${orgId}/billing/ai-usage?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${interval}`;
  /** Today's usage, as getOrganizationAIUsage answers it (checked against GitBook's schema). */
  async function todaysUsage(s: Limited) {
    const now = Date.now();
    const res = await s.org.owner.client
      .get(
        usagePath(
          s.org.id,
          new Date(now - 86_400_000).toISOString(),
          new Date(now + 60_000).toISOString(),
        ),
      )
      .expect(200);
    expectConforms(res, 'getOrganizationAIUsage', GITBOOK_0202);
    const today = new Date(now).toISOString().slice(0, 10);
    const period = (
      res.body.periods as { date: string; credits: number; features: object[] }[]
    ).find((p) => p.date === today);
    return period ?? { date: today, credits: 0, features: [] };
  }

  function expectTooMany(
    res: { status: number; body: unknown; headers: Record<string, string> },
    text: string,
  ) {
    expectError(res, 429, text);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }

  it("limits a visitor's questions to a site per minute, then the site's, with 429 and Retry-After", async () => {
    const s = await limited();
    for (let i = 0; i < 2; i++) {
      const res = await siteAsk(s, s.visitor, 'alice');
      expectEventStream(res, 'SearchAIAnswerStream', GITBOOK_0202);
    }
    const refused = await siteAsk(s, s.visitor, 'alice');
    expectTooMany(refused, 'You have asked this site too many questions');
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expectConforms(refused, 'streamAskInSite', BINDERY_DOCUMENT);
    expect(model.requests).toHaveLength(2);

    // Another visitor (the renderer's visitorId) has its own count, until the site's (3 a
    // minute) is reached.
    expectEventStream(await siteAsk(s, s.visitor, 'bob'), 'SearchAIAnswerStream', GITBOOK_0202);
    expectTooMany(
      await siteAsk(s, s.visitor, 'bob'),
      'This site has been asked too many questions',
    );
    expect(model.requests).toHaveLength(3);
  });

  it('counts the questions of a token without a session as one visitor', async () => {
    const s = await limited();
    expectEventStream(await siteAsk(s, s.visitor), 'SearchAIAnswerStream', GITBOOK_0202);
    expectEventStream(await siteAsk(s, s.visitor), 'SearchAIAnswerStream', GITBOOK_0202);
    expectTooMany(await siteAsk(s, s.visitor), 'You have asked this site too many questions');
  });

  it('suggests questions from the titles, without the model, beyond the limits; asks keep their own count', async () => {
    const s = await limited();
    const suggestions = (client: Client) =>
      client.get(`/v1/orgs/${s.org.id}/sites/${s.siteId}/ask/questions`);
    // The visitor's limit (2 a minute): two suggestions asked of the model, then from titles.
    for (let i = 0; i < 2; i++) {
      expectEventStream(
        await suggestions(s.visitor),
        'SearchAIRecommendedQuestionStream',
        GITBOOK_0202,
      );
    }
    expect(model.requests).toHaveLength(2);
    const third = await suggestions(s.visitor);
    const { messages } = expectEventStream<{ question: string }>(
      third,
      'SearchAIRecommendedQuestionStream',
      GITBOOK_0202,
    );
    expect(messages.map((message) => message.question)).toEqual([
      'What should I know about Installation?',
      'What should I know about Webhooks?',
    ]);
    expect(model.requests).toHaveLength(2);
    // The site's limit (3 a minute) counts every visitor's: a member gets one more, then titles.
    await suggestions(s.memberA).expect(200);
    expect(model.requests).toHaveLength(3);
    await suggestions(s.memberB).expect(200);
    expect(model.requests).toHaveLength(3);
    // Questions asked are counted apart: the visitor may still ask.
    expectEventStream(await siteAsk(s, s.visitor), 'SearchAIAnswerStream', GITBOOK_0202);
    expect(model.requests).toHaveLength(4);

    // A member's suggestions of the organization, within AI_ASK_PER_MEMBER_PER_MINUTE (2).
    model.reset();
    for (let i = 0; i < 3; i++) {
      await s.memberA.get(`/v1/orgs/${s.org.id}/ask/questions`).expect(200);
    }
    expect(model.requests).toHaveLength(2);
  });

  it("limits a member's questions to the organization per minute; other members keep theirs", async () => {
    const s = await limited();
    await orgAsk(s, s.memberA).expect(200);
    await orgAsk(s, s.memberA).expect(200);
    const refused = await orgAsk(s, s.memberA);
    expectTooMany(refused, 'You have asked too many questions');
    expectConforms(refused, 'askInOrganization', BINDERY_DOCUMENT);
    const stream = await s.memberA.get(`/v1/orgs/${s.org.id}/ask/stream?query=zephyrine`);
    expectTooMany(stream, 'too many questions');
    await orgAsk(s, s.memberB).expect(200);
    // A member's site asks are counted apart from its organization asks.
    expectEventStream(await siteAsk(s, s.memberA), 'SearchAIAnswerStream', GITBOOK_0202);
  });

  it('counts the tokens the model reports, asking for them with include_usage', async () => {
    const s = await limited();
    model.options = { usage: { prompt_tokens: 100, completion_tokens: 23, total_tokens: 123 } };
    await orgAsk(s, s.memberA).expect(200);
    expect(model.requests[0].body.stream_options).toEqual({ include_usage: true });
    expectEventStream(await siteAsk(s, s.visitor, 'alice'), 'SearchAIAnswerStream', GITBOOK_0202);
    expect(await todaysUsage(s)).toMatchObject({
      credits: 246,
      features: expect.arrayContaining([
        { feature: 'organization-ask', credits: 123, creditsPercent: 50 },
        { feature: 'site-ask', credits: 123, creditsPercent: 50 },
      ]),
    });
  });

  it('estimates the tokens at 4 characters each when the model reports none', async () => {
    const s = await limited();
    model.options = { usage: false };
    await orgAsk(s, s.memberA).expect(200);
    const { body } = model.requests[0];
    const sent = body.messages.reduce((sum, message) => sum + message.content.length, 0);
    const expected = Math.ceil((sent + defaultReply(body).length) / 4);
    expect(await todaysUsage(s)).toMatchObject({
      credits: expected,
      features: [{ feature: 'organization-ask', credits: expected, creditsPercent: 100 }],
    });
  });

  it('cuts the sources so that the prompt stays within AI_MAX_PROMPT_CHARS', async () => {
    const long = `Install the zephyrine engine. ${'The engine needs care. '.repeat(400)}`;
    const s = await limited(long);
    await orgAsk(s, s.memberA).expect(200);
    const { messages } = model.requests[0].body;
    const chars = messages.reduce((sum, message) => sum + message.content.length, 0);
    expect(chars).toBeLessThanOrEqual(MAX_PROMPT);
    expect(messages[1].content).toContain('### Source 1: Installation');
    expect(messages[1].content).toContain('Install the zephyrine engine.');
    expect(messages[1].content).toContain('Question: How do I install the zephyrine engine?');
  });

  it('answers 429 once the monthly budget is used, for every ask; suggestions fall back to titles', async () => {
    const s = await limited();
    model.options = { usage: { prompt_tokens: 500, completion_tokens: 100, total_tokens: 600 } };
    await orgAsk(s, s.memberA).expect(200);
    // 600 of 1000 used: one more answer is written, and it goes over.
    expectEventStream(await siteAsk(s, s.visitor, 'alice'), 'SearchAIAnswerStream', GITBOOK_0202);
    expect((await todaysUsage(s)).credits).toBe(1200);

    model.reset();
    const refused = await orgAsk(s, s.memberB);
    expectTooMany(refused, 'monthly AI budget');
    const now = new Date();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(
      (nextMonth - now.getTime()) / 1000 - 60,
    );
    expectTooMany(await siteAsk(s, s.visitor, 'bob'), 'monthly AI budget');
    expectTooMany(
      await s.memberB.get(`/v1/orgs/${s.org.id}/ask/stream?query=zephyrine`),
      'monthly AI budget',
    );
    const questions = await s.memberB.get(`/v1/orgs/${s.org.id}/ask/questions`).expect(200);
    expect(questions.body.questions).toEqual([
      'What should I know about Installation?',
      'What should I know about Webhooks?',
    ]);
    expect(model.requests).toHaveLength(0);

    // Another organization has its own budget.
    const other = await limited();
    await orgAsk(other, other.memberA).expect(200);
  });

  describe('getOrganizationAIUsage', () => {
    it('answers every bucket of the range for admins, by interval', async () => {
      const s = await limited();
      await orgAsk(s, s.memberA).expect(200);
      const now = new Date();
      const month = `${now.toISOString().slice(0, 7)}-01`;
      const res = await s.org.owner.client
        .get(usagePath(s.org.id, `${month}T00:00:00Z`, '2999-01-01T00:00:00Z', '&interval=month'))
        .expect(200);
      expectConforms(res, 'getOrganizationAIUsage', GITBOOK_0202);
      expect(res.body.periods).toEqual([
        {
          date: month,
          credits: 15,
          features: [{ feature: 'organization-ask', credits: 15, creditsPercent: 100 }],
        },
      ]);
      // `to` is capped at now.
      expect(new Date(res.body.to as string).getTime()).toBeLessThanOrEqual(Date.now());

      const days = await s.org.owner.client
        .get(
          usagePath(
            s.org.id,
            new Date(now.getTime() - 6 * 86_400_000).toISOString(),
            now.toISOString(),
          ),
        )
        .expect(200);
      expectConforms(days, 'getOrganizationAIUsage', GITBOOK_0202);
      expect(days.body.periods).toHaveLength(7);
    });

    it('answers 400 for a bad range, 403 below admin and 404 to another organization', async () => {
      const s = await limited();
      const owner = s.org.owner.client;
      const now = new Date().toISOString();
      for (const [path, text] of [
        [usagePath(s.org.id, now, '2020-01-01T00:00:00Z'), 'before `to`'],
        [usagePath(s.org.id, '2001-01-01T00:00:00Z', now), 'two years'],
        [usagePath(s.org.id, 'yesterday', now), 'from'],
        [usagePath(s.org.id, now, now, '&interval=hour'), 'interval'],
        [`/v1/orgs/${s.org.id}/billing/ai-usage?from=${encodeURIComponent(now)}`, 'to'],
      ] as const) {
        const res = await owner.get(path);
        expectError(res, 400, text);
        expectConforms(res, 'getOrganizationAIUsage', BINDERY_DOCUMENT);
      }
      const range = usagePath(s.org.id, '2026-01-01T00:00:00Z', now);
      const reader = await s.memberA.get(range);
      expect(reader.status).toBe(403);
      expectConforms(reader, 'getOrganizationAIUsage', BINDERY_DOCUMENT);
      const outsider = (await t.factories.organization()).owner.client;
      const unseen = await outsider.get(range);
      expect(unseen.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
    });
  });
});
