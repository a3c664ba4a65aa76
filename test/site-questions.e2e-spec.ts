import { SiteQuestionsService } from '../src/answers/questions/site-questions.service';
import { answerSite, type AnswerSite, ANSWER_SITES_URL, SECRET } from './helpers/answers';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { expectEventStream } from './helpers/event-stream';
import { type FakeChatServer, startFakeChatServer } from './helpers/fake-chat-server';

/**
 * What visitors ask a site's AI answers, recorded and read back (GitBook's site questions,
 * 0.202.0): each ask with its answer, sources, anonymous ids and feedback; questions, answers,
 * sources and counts; agents' feedback; a site's agent settings; the retention. Every body is
 * checked against GitBook's schema for its operationId.
 */

const DAY = 24 * 60 * 60 * 1000;

interface Source {
  page: string;
}
interface Answer {
  type: 'answer';
  answer: { sources: Source[] };
}

describe('site questions (e2e)', () => {
  let t: TestApp;
  let model: FakeChatServer;

  beforeAll(async () => {
    model = await startFakeChatServer();
    t = await createTestApp({
      SITES_URL: ANSWER_SITES_URL,
      AI_API_URL: model.url,
      AI_MODEL: 'fake-chat',
    });
  });
  afterAll(async () => {
    t.clock.resume();
    await t.close();
    await model.close();
  });
  beforeEach(() => model.reset());

  const questionSite = (): Promise<AnswerSite> =>
    answerSite(t, { install: 'Install the zephyrine engine with `npm install zephyrine`.' });

  /** Asks as `client`; the stream's events and the request id (the answer's responseId). */
  async function ask(
    s: AnswerSite,
    client: Client,
    question: string,
    extra: object = {},
    ending: 'done' | 'error' = 'done',
  ) {
    const res = await client.post(`${s.base}/ask?format=markdown`, {
      question,
      scope: { mode: 'default', currentSiteSpace: s.guides.id },
      ...extra,
    });
    const { messages } = expectEventStream<Answer>(
      res,
      'SearchAIAnswerStream',
      GITBOOK_0202,
      ending,
    );
    return { messages, requestId: res.headers['x-request-id'] as string };
  }

  async function read(client: Client, path: string, operationId: string) {
    const res = await client.get(path);
    expect(res.status).toBe(200);
    expectConforms(res, operationId, GITBOOK_0202);
    return res.body;
  }

  function expectError(res: { status: number; body: unknown }, code: number, text = '') {
    expect({ status: res.status, body: res.body }).toEqual({
      status: code,
      body: { error: { code, message: expect.stringContaining(text) } },
    });
  }

  it("records a visitor's ask with its answer, sources and anonymous ids, and lists it", async () => {
    const s = await questionSite();
    const owner = s.org.owner.client;
    const session = { visitorId: 'visitor-1', sessionId: 'session-1' };
    const { requestId } = await ask(s, s.plain, 'How do I install the zephyrine engine?', {
      session,
    });
    expect(requestId).toEqual(expect.any(String));

    const questions = await read(owner, `${s.base}/questions`, 'listSiteQuestions');
    expect(questions.count).toBe(1);
    const [question] = questions.items;
    expect(question).toMatchObject({
      object: 'site-question',
      question: 'How do I install the zephyrine engine?',
      type: 'unknown',
      stats: {
        total: 1,
        answers: 1,
        answered: { yes: 1, partially: 0, no: 0 },
        feedback: { positive: 0, negative: 0, unrated: 1 },
        channelTypes: { site: 1 },
      },
      urls: { location: expect.stringContaining(`/questions/${question.id}`) },
    });

    const answers = await read(owner, `${s.base}/answers`, 'listSiteQuestionAnswers');
    expect(answers.items).toHaveLength(1);
    const [answer] = answers.items;
    expect(answer).toMatchObject({
      object: 'site-question-answer',
      question: { id: question.id, type: 'unknown' },
      input: {
        raw: 'How do I install the zephyrine engine?',
        text: 'how do i install the zephyrine engine',
      },
      session,
      responseId: requestId,
      answered: 'yes',
      channel: { type: 'site' },
    });
    expect(answer.feedback).toBeUndefined();

    const whole = await read(owner, `${s.base}/answers/${answer.id}`, 'getSiteQuestionAnswerById');
    expect(whole.response).toMatchObject({
      role: 'assistant',
      steps: [{ content: expect.any(Object) }],
    });
    expect(JSON.stringify(whole.response.steps[0].content)).toContain('According to');
    // The follow-up questions are the stream's, not part of the answer kept.
    expect(JSON.stringify(whole.response)).not.toContain('Follow-up');

    const thread = await read(
      owner,
      `${s.base}/answers/${answer.id}/thread`,
      'getSiteQuestionAnswerThreadById',
    );
    expect(thread.map((item: { id: string }) => item.id)).toEqual([answer.id]);

    const cited = await read(
      owner,
      `${s.base}/answers/${answer.id}/sources`,
      'listSiteQuestionAnswerSources',
    );
    expect(cited.items[0]).toMatchObject({
      object: 'site-question-answer-source',
      type: 'page',
      page: s.installId,
      space: s.guides.space.id,
      title: 'Installation',
    });

    // Asked again, differently cased and punctuated: the same question, two answers.
    await ask(s, s.org.owner.client, 'how do I install the ZEPHYRINE engine');
    const again = await read(owner, `${s.base}/questions/${question.id}`, 'getSiteQuestionById');
    expect(again.stats).toMatchObject({ total: 1, answers: 2, channelTypes: { site: 1, api: 1 } });
    const sources = await read(
      owner,
      `${s.base}/questions/${question.id}/sources`,
      'listSiteQuestionSources',
    );
    expect(sources.items[0]).toMatchObject({ page: s.installId, title: 'Installation' });
    const weights = sources.items.map((item: { weight: number }) => item.weight);
    expect(weights.reduce((sum: number, weight: number) => sum + weight, 0)).toBeCloseTo(1);

    // Only what the filters keep.
    const fromVisitors = await read(
      owner,
      `${s.base}/answers?channelType=site`,
      'listSiteQuestionAnswers',
    );
    expect(fromVisitors.items.map((item: { id: string }) => item.id)).toEqual([answer.id]);
    const byQuestion = await read(
      owner,
      `${s.base}/answers?question=${question.id}&limit=1`,
      'listSiteQuestionAnswers',
    );
    expect(byQuestion).toMatchObject({ count: 2, next: { page: expect.any(String) } });
    const second = await read(
      owner,
      `${s.base}/answers?question=${question.id}&limit=1&page=${byQuestion.next.page}`,
      'listSiteQuestionAnswers',
    );
    expect(second.items.map((item: { id: string }) => item.id)).toEqual([answer.id]);
    expect(second.next).toBeUndefined();

    // Nothing of the visitor but its anonymous ids: no claims, no token.
    const rows: object[] = await t.dataSource.query(
      'SELECT * FROM site_question_answers WHERE site_id = $1',
      [s.site.id],
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(s.plain.token!);
    expect(stored).not.toContain(s.org.owner.client.token!);
    expect(stored).not.toContain('unsigned');
  });

  it('never records a page hidden by a condition as a source, whoever asked', async () => {
    const s = await questionSite();
    const question = `What is the ${SECRET} zephyrine engine plan?`;
    const { messages } = await ask(s, s.tester, question);
    // The visitor who sees it got it as a source; members do too.
    expect(messages.at(-1)!.answer.sources.map((source) => source.page)).toContain(s.hiddenId);
    const member = await ask(s, s.org.owner.client, question);
    expect(member.messages.at(-1)!.answer.sources.map((source) => source.page)).toContain(
      s.hiddenId,
    );

    const owner = s.org.owner.client;
    const answers = await read(owner, `${s.base}/answers`, 'listSiteQuestionAnswers');
    expect(answers.items).toHaveLength(2);
    for (const answer of answers.items as { id: string; question: { id: string } }[]) {
      const cited = await read(
        owner,
        `${s.base}/answers/${answer.id}/sources`,
        'listSiteQuestionAnswerSources',
      );
      expect(cited.items.map((item: Source) => item.page)).toContain(s.installId);
      expect(JSON.stringify(cited)).not.toContain(s.hiddenId);
      const bySource = await read(
        owner,
        `${s.base}/questions/${answer.question.id}/sources`,
        'listSiteQuestionSources',
      );
      expect(JSON.stringify(bySource)).not.toContain(s.hiddenId);
    }
    const rows: { sources: object }[] = await t.dataSource.query(
      'SELECT sources FROM site_question_answers WHERE site_id = $1',
      [s.site.id],
    );
    expect(JSON.stringify(rows)).not.toContain(s.hiddenId);
    expect(JSON.stringify(rows)).not.toContain('Quokkaveil');
  });

  it('finds the questions no page answered, and records one the model failed with no answer', async () => {
    const s = await questionSite();
    const owner = s.org.owner.client;
    await ask(s, s.plain, 'How do I install zephyrine?');
    await ask(s, s.plain, 'Where are the xylograph brambles?');
    model.options = { status: 503 };
    await ask(s, s.plain, 'Do webhooks deliver events?', {}, 'error');
    model.reset();

    const unanswered = await read(owner, `${s.base}/questions?answered=no`, 'listSiteQuestions');
    expect(unanswered.items.map((item: { question: string }) => item.question).sort()).toEqual([
      'Do webhooks deliver events?',
      'Where are the xylograph brambles?',
    ]);
    const answered = await read(owner, `${s.base}/questions?answered=yes`, 'listSiteQuestions');
    expect(answered.items.map((item: { question: string }) => item.question)).toEqual([
      'How do I install zephyrine?',
    ]);

    const noSource = await read(
      owner,
      `${s.base}/answers?answered=no&helpfulness=low`,
      'listSiteQuestionAnswers',
    );
    expect(noSource.count).toBe(2);
    const failed = noSource.items.find(
      (item: { input: { raw: string } }) => item.input.raw === 'Do webhooks deliver events?',
    );
    const whole = await read(owner, `${s.base}/answers/${failed.id}`, 'getSiteQuestionAnswerById');
    expect(whole.response.steps).toEqual([]);
    // Its sources were found all the same.
    const cited = await read(
      owner,
      `${s.base}/answers/${failed.id}/sources`,
      'listSiteQuestionAnswerSources',
    );
    expect(cited.count).toBeGreaterThan(0);
    const brambles = noSource.items.find(
      (item: { input: { raw: string } }) => item.input.raw === 'Where are the xylograph brambles?',
    );
    const none = await read(
      owner,
      `${s.base}/answers/${brambles.id}/sources`,
      'listSiteQuestionAnswerSources',
    );
    expect(none).toEqual({ items: [], count: 0 });

    const stats = await read(owner, `${s.base}/question-stats`, 'getSiteQuestionStats');
    expect(stats).toMatchObject({
      total: 3,
      answers: 3,
      answered: { yes: 1, partially: 0, no: 2 },
      relevance: { relevant: 3, spam: 0, 'off-topic': 0, unclear: 0 },
      channelTypes: { site: 3 },
      channels: {},
    });
    expect(stats.weeklyPulse).toHaveLength(13);
    expect(stats.weeklyPulse.at(-1)).toBe(3);
    const none2 = await read(
      owner,
      `${s.base}/question-stats?channelType=api&channelType=embed`,
      'getSiteQuestionStats',
    );
    expect(none2).toMatchObject({ total: 0, answers: 0 });
    const classified = await read(owner, `${s.base}/questions?relevance=spam`, 'listSiteQuestions');
    expect(classified).toEqual({ items: [], count: 0 });
    const sorted = await read(
      owner,
      `${s.base}/questions?sort=stats.answered&order=desc`,
      'listSiteQuestions',
    );
    expect(sorted.items[0].question).toBe('How do I install zephyrine?');
    // Every order pages through every question once.
    for (const sort of ['', 'askedAt', 'stats.answered', 'stats.feedback', 'stats.answers']) {
      for (const order of ['asc', 'desc']) {
        const seen: string[] = [];
        let page = '';
        do {
          const query = `limit=1&order=${order}${sort ? `&sort=${sort}` : ''}${page}`;
          const list = await read(owner, `${s.base}/questions?${query}`, 'listSiteQuestions');
          expect(list.count).toBe(3);
          seen.push(...list.items.map((item: { question: string }) => item.question));
          page = list.next ? `&page=${list.next.page}` : '';
        } while (page);
        expect(seen.sort()).toEqual([
          'Do webhooks deliver events?',
          'How do I install zephyrine?',
          'Where are the xylograph brambles?',
        ]);
      }
    }
  });

  it("takes an agent's feedback, from a member or the site's token, and rates the answer it names", async () => {
    const s = await questionSite();
    const owner = s.org.owner.client;
    const { requestId } = await ask(s, s.plain, 'How do I install zephyrine?');
    const feedback = {
      reportedBy: { model: 'some-model', correlationId: requestId },
      subject: { kind: 'mcp-tool', toolName: 'askQuestion' },
      feedback: { category: 'documentation', summary: 'The answer skips the configuration.' },
    };
    const res = await s.plain.post(`${s.base}/agents/feedback`, feedback);
    expect(res.status).toBe(201);
    expectConforms(res, 'submitAgentFeedbackToSite', GITBOOK_0202);
    expect(res.body).toEqual({ id: expect.any(String), result: expect.any(String) });

    const answers = await read(owner, `${s.base}/answers`, 'listSiteQuestionAnswers');
    expect(answers.items[0]).toMatchObject({ feedback: { rating: -1 }, helpfulness: 'low' });
    const stats = await read(owner, `${s.base}/question-stats`, 'getSiteQuestionStats');
    expect(stats.feedback).toEqual({ positive: 0, negative: 1, unrated: 0 });

    // Not about an answer: recorded alone.
    const generic = await owner.post(`${s.base}/agents/feedback`, {
      subject: { kind: 'generic' },
      feedback: { category: 'could-not-accomplish', summary: 'No way to list plans.' },
    });
    expect(generic.status).toBe(201);
    expectConforms(generic, 'submitAgentFeedbackToSite', GITBOOK_0202);

    const deprecated = await s.plain.post(`${s.base}/agent-feedback`, {
      feedback: 'The installation page misses the configuration step.',
      url: `https://docs.localhost/${s.org.id}/${s.site.id}/installation`,
      spaceId: s.guides.space.id,
      pageId: s.installId,
      source: 'mcp',
    });
    expect(deprecated.status).toBe(204);
    expectConforms(deprecated, 'submitSiteAgentFeedback', GITBOOK_0202);

    const rows: { answer_id: string | null; subject: { kind: string } }[] =
      await t.dataSource.query(
        'SELECT answer_id, subject FROM site_agent_feedback WHERE site_id = $1 ORDER BY created_at',
        [s.site.id],
      );
    expect(rows.map((row) => [row.subject.kind, row.answer_id])).toEqual([
      ['mcp-tool', answers.items[0].id],
      ['generic', null],
      ['site-content', null],
    ]);

    // Another site's token names nothing here.
    const other = await questionSite();
    expectError(
      await other.plain.post(`${s.base}/agents/feedback`, feedback),
      404,
      'Site not found.',
    );
    expectError(
      await other.plain.post(`${s.base}/agent-feedback`, { feedback: 'x' }),
      404,
      'Site not found.',
    );
  });

  it("stores a site's agent settings, changed by those who change the site", async () => {
    const s = await questionSite();
    const path = `${s.base}/agent-settings`;
    const initial = await read(s.org.owner.client, path, 'getSiteAgentSettingsById');
    expect(initial).toMatchObject({
      object: 'site-agent-settings',
      scans: { topics: 'never' },
      findings: { changeRequests: 'never' },
      editing: { customInstructions: { object: 'document', nodes: [] } },
    });
    expect(initial.updatedAt).toBeUndefined();

    const settings = {
      scans: { topics: 'auto' },
      findings: { changeRequests: 'auto-fixable' },
      editing: {
        customInstructions: {
          object: 'document',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              data: {},
              nodes: [
                { object: 'text', leaves: [{ object: 'leaf', text: 'Be brief.', marks: [] }] },
              ],
            },
          ],
        },
      },
    };
    const res = await s.org.owner.client.put(path, settings);
    expect(res.status).toBe(200);
    expectConforms(res, 'updateSiteAgentSettingsById', GITBOOK_0202);
    expect(res.body).toMatchObject({ ...settings, updatedBy: s.org.owner.id });
    const reader = await t.factories.asMember(s.org, 'read');
    const stored = await read(reader, path, 'getSiteAgentSettingsById');
    expect(stored).toMatchObject({ ...settings, updatedAt: res.body.updatedAt });

    // A role below the site's writers: 403; bad settings: 400.
    const editor = await t.factories.asMember(s.org, 'edit');
    expectError(await editor.put(path, settings), 403);
    expectError(
      await s.org.owner.client.put(path, { ...settings, scans: undefined }),
      400,
      'scans',
    );
    expectError(
      await s.org.owner.client.put(path, {
        ...settings,
        findings: { changeRequests: 'sometimes' },
      }),
      400,
      'findings.changeRequests',
    );
    expectError(await s.plain.put(path, settings), 403);
    expectError(await s.plain.get(path), 403);
  });

  it('answers 400 for bad input, 404 for what the caller does not see, 403 to site tokens', async () => {
    const s = await questionSite();
    const owner = s.org.owner.client;
    for (const [query, message] of [
      ['answered=maybe', 'answered'],
      ['channelType=fax', 'channelType'],
      ['from=yesterday', 'from'],
      ['sort=title', 'sort'],
      ['limit=0', 'limit'],
      ['page=nonsense', 'page'],
      ['color=blue', 'color'],
    ]) {
      expectError(await owner.get(`${s.base}/questions?${query}`), 400, message);
    }
    expectError(await owner.get(`${s.base}/answers?helpfulness=huge`), 400, 'helpfulness');
    expectError(await owner.get(`${s.base}/question-stats?relevance=maybe`), 400, 'relevance');
    expectError(
      await owner.post(`${s.base}/agents/feedback`, {
        subject: { kind: 'telepathy' },
        feedback: { category: 'usability', summary: 'x' },
      }),
      400,
      'subject.kind',
    );
    expectError(
      await owner.post(`${s.base}/agents/feedback`, {
        subject: { kind: 'generic' },
        feedback: { category: 'usability', summary: '' },
      }),
      400,
      'feedback.summary',
    );
    expectError(
      await owner.post(`${s.base}/agent-feedback`, { feedback: 'x', url: 'not a url' }),
      400,
    );

    await ask(s, s.plain, 'How do I install zephyrine?');
    const [answer] = (await read(owner, `${s.base}/answers`, 'listSiteQuestionAnswers')).items;
    expectError(await owner.get(`${s.base}/questions/nope`), 404, 'Site question not found.');
    expectError(await owner.get(`${s.base}/questions/nope/sources`), 404, 'Site question');
    expectError(await owner.get(`${s.base}/answers/nope`), 404, 'Site question answer not found.');
    expectError(await owner.get(`${s.base}/answers/nope/thread`), 404, 'Site question answer');
    expectError(await owner.get(`${s.base}/answers/nope/sources`), 404, 'Site question answer');

    // Another organization's member: as if nothing were there.
    const other = await questionSite();
    for (const path of [
      `${s.base}/questions`,
      `${s.base}/question-stats`,
      `${s.base}/answers/${answer.id}`,
      `${s.base}/questions/${answer.question.id}`,
    ]) {
      expectError(await other.org.owner.client.get(path), 404, 'Organization not found.');
    }
    // Its own site does not hold this answer.
    expectError(
      await other.org.owner.client.get(`${other.base}/answers/${answer.id}`),
      404,
      'Site question answer not found.',
    );
    // A site's token asks, and never reads what was asked.
    expectError(await s.plain.get(`${s.base}/questions`), 403);
    expectError(await s.plain.get(`${s.base}/answers/${answer.id}`), 403);
    // Every member who reads the site reads its questions; a guest does not.
    const reader = await t.factories.asMember(s.org, 'read');
    await read(reader, `${s.base}/questions`, 'listSiteQuestions');
    const guest = await t.factories.asMember(s.org, null);
    expectError(await guest.get(`${s.base}/questions`), 403);
    expectError(await guest.get(`${s.base}/answers/${answer.id}`), 403);
  });

  it('deletes what is older than AI_QUESTIONS_RETENTION_DAYS', async () => {
    const s = await questionSite();
    const owner = s.org.owner.client;
    const start = Date.now();
    t.clock.set(new Date(start - 100 * DAY));
    try {
      await ask(s, s.plain, 'How do I install zephyrine?');
      await s.plain
        .post(`${s.base}/agents/feedback`, {
          subject: { kind: 'generic' },
          feedback: { category: 'usability', summary: 'Old.' },
        })
        .expect(201);
      t.clock.set(new Date(start - 10 * DAY));
      await ask(s, s.plain, 'Do webhooks deliver events?');
      t.clock.set(new Date(start));
      expect(t.config.AI_QUESTIONS_RETENTION_DAYS).toBe(90);
      expect(await t.bindery.app.get(SiteQuestionsService).purgeExpired()).toBeGreaterThanOrEqual(
        3,
      );
    } finally {
      t.clock.resume();
    }
    const questions = await read(owner, `${s.base}/questions`, 'listSiteQuestions');
    expect(questions.items.map((item: { question: string }) => item.question)).toEqual([
      'Do webhooks deliver events?',
    ]);
    const rows: object[] = await t.dataSource.query(
      'SELECT id FROM site_agent_feedback WHERE site_id = $1',
      [s.site.id],
    );
    expect(rows).toEqual([]);
  });
});
