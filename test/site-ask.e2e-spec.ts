import { NO_MODEL_ANSWER } from '../src/answers/site-answers.service';
import {
  type AnswerEvent as Answer,
  expectError,
  answerSite,
  type AnswerSite,
  ANSWER_SITES_URL,
  SECRET,
} from './helpers/answers';
import { createTestApp, TestApp } from './helpers/app';
import { expectMatchesSchema, GITBOOK_0202 } from './helpers/conformance';
import { expectEventStream, parseEventStream } from './helpers/event-stream';
import { FOLLOW_UPS, type FakeChatServer, startFakeChatServer } from './helpers/fake-chat-server';

/**
 * `streamAskInSite` and `streamRecommendedQuestionsInSite`: answers written by a fake
 * OpenAI-compatible model from what the site search finds, as the caller may read it, streamed
 * as GitBook's API streams them (each event checked against the 0.202.0 schemas).
 */

describe('site answers (e2e)', () => {
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
    await t.close();
    await model.close();
  });
  beforeEach(() => model.reset());

  const askPath = (org: { id: string }, siteId: string, query = '') =>
    `/v1/orgs/${org.id}/sites/${siteId}/ask${query}`;
  const questionsPath = (org: { id: string }, siteId: string, query = '') =>
    `/v1/orgs/${org.id}/sites/${siteId}/ask/questions${query}`;

  const askSite = (testApp: TestApp = t, aiMode = 'search'): Promise<AnswerSite> =>
    answerSite(testApp, { aiMode });

  const ask = (question: string, s: AnswerSite) => ({
    question,
    context: { siteSpaceId: s.guides.id },
    scope: { mode: 'default', currentSiteSpace: s.guides.id },
  });

  describe('with a model', () => {
    it('streams the answer as the model writes it, with its sources and follow-ups', async () => {
      const s = await askSite();
      await s.org.owner.client
        .put(`/v1/orgs/${s.org.id}/agent-instructions`, {
          instructions: {
            object: 'document',
            data: {},
            nodes: [
              {
                object: 'block',
                type: 'paragraph',
                data: {},
                nodes: [
                  { object: 'text', leaves: [{ object: 'leaf', text: 'Be kind.', marks: [] }] },
                ],
              },
            ],
          },
        })
        .expect(200);
      const res = await s.plain.post(
        askPath(s.org, s.site.id, '?format=markdown'),
        ask('How do I install the zephyrine engine?', s),
      );
      const { messages } = expectEventStream<Answer>(res, 'SearchAIAnswerStream', GITBOOK_0202);

      // First the sources alone, then the answer growing, the last one whole.
      expect(messages.length).toBeGreaterThan(3);
      expect(messages[0].answer.answer).toEqual({});
      const texts = messages.slice(1).map((message) => message.answer.answer?.markdown ?? '');
      texts.slice(1).forEach((text, i) => expect(text.startsWith(texts[i])).toBe(true));
      const last = messages.at(-1)!.answer;
      expect(last.answer).toEqual({
        markdown: 'According to **Installation**, you install the engine with `npm install`.',
      });
      expect(last.followupQuestions).toEqual(FOLLOW_UPS);
      expect(texts.some((text) => text.includes('Follow-up'))).toBe(false);
      for (const message of messages) {
        expect(message.answer.sources[0]).toEqual({
          type: 'page',
          page: s.installId,
          revision: s.revisionId,
          space: s.guides.space.id,
          sections: expect.any(Array),
        });
      }

      // What the model was asked: the rules, the instructions, the page's text, the question.
      expect(model.requests).toHaveLength(1);
      const { body } = model.requests[0];
      expect(body).toMatchObject({ model: 'fake-chat', stream: true });
      const [system, user] = body.messages;
      expect(system.content).toContain('Answer only from the sources');
      expect(system.content).toContain('does not answer');
      expect(system.content).toContain('Be kind.');
      expect(user.content).toContain('### Source 1: Installation (in Guides)');
      expect(user.content).toContain('npm install zephyrine');
      expect(user.content).toContain('Question: How do I install the zephyrine engine?');
    });

    it('answers a JSON document by default, and members too', async () => {
      const s = await askSite();
      const res = await s.org.owner.client.post(
        askPath(s.org, s.site.id),
        ask('zephyrine install', s),
      );
      const { messages } = expectEventStream<Answer>(res, 'SearchAIAnswerStream', GITBOOK_0202);
      const last = messages.at(-1)!.answer;
      expect(last.answer?.document).toMatchObject({ object: 'document' });
      expect(JSON.stringify(last.answer)).toContain('Installation');
      // A member reads every page: the hidden one is among the sources.
      expect(last.sources.map((source) => source.page)).toEqual(
        expect.arrayContaining([s.installId, s.hiddenId]),
      );
    });

    it('never draws on a page hidden from the visitor, and does for one who sees it', async () => {
      const s = await askSite();
      const question = ask(`What is the ${SECRET} zephyrine engine plan?`, s);
      const res = await s.plain.post(askPath(s.org, s.site.id, '?format=markdown'), question);
      const { messages } = expectEventStream<Answer>(res, 'SearchAIAnswerStream', GITBOOK_0202);
      for (const message of messages) {
        expect(message.answer.sources.map((source) => source.page)).not.toContain(s.hiddenId);
      }
      expect(res.text.toLowerCase()).not.toContain(SECRET);
      expect(res.text).not.toContain(s.hiddenId);
      const prompt = JSON.stringify(model.requests.map((request) => request.body.messages[1]));
      expect(prompt).toContain('Installation');
      expect(prompt).not.toContain('roadmap');
      expect(prompt).not.toContain('Quokkaveil plan');

      model.reset();
      const seen = await s.tester.post(askPath(s.org, s.site.id, '?format=markdown'), question);
      const shown = expectEventStream<Answer>(seen, 'SearchAIAnswerStream', GITBOOK_0202);
      expect(shown.messages.at(-1)!.answer.sources.map((source) => source.page)).toContain(
        s.hiddenId,
      );
      expect(JSON.stringify(model.requests[0].body.messages)).toContain('roadmap');
    });

    it('answers an error event when the model is down, errs or breaks off, never a 500', async () => {
      const s = await askSite();
      const path = askPath(s.org, s.site.id, '?format=markdown');
      for (const options of [
        { status: 503 },
        { status: 400 },
        { hangUp: true },
        { breakAfter: 3 },
      ]) {
        model.options = options;
        const res = await s.plain.post(path, ask('How do I install zephyrine?', s));
        const { messages, error } = expectEventStream<Answer>(
          res,
          'SearchAIAnswerStream',
          GITBOOK_0202,
          'error',
        );
        expect(error).toEqual({
          code: 503,
          message: expect.stringContaining('The model could not answer'),
        });
        // The sources came first.
        expect(messages[0].answer.sources[0].page).toBe(s.installId);
      }
    });

    it('answers 400 for bad input, with the field named', async () => {
      const s = await askSite();
      const path = askPath(s.org, s.site.id);
      const scope = { mode: 'default' };
      for (const [body, message] of [
        [{ scope }, 'question'],
        [{ question: '   ', scope }, 'question'],
        [{ question: 'x'.repeat(513), scope }, 'question'],
        [{ question: 'Why?' }, 'scope'],
        [{ question: 'Why?', scope: { mode: 'everything' } }, 'scope.mode'],
        [{ question: 'Why?', scope: { mode: 'specific', siteSpaceIds: ['nope'] } }, 'nope'],
        [{ question: 'Why?', scope, context: { goal: 'g'.repeat(1025) } }, 'context.goal'],
        [{ question: 'Why?', scope, session: { visitorId: 'v' } }, 'session.sessionId'],
      ] as const) {
        expectError(await s.plain.post(path, body), 400, message);
      }
      expectError(
        await s.plain.post(askPath(s.org, s.site.id, '?format=html'), ask('Why?', s)),
        400,
        'format',
      );
      expect(model.requests).toHaveLength(0);
    });

    it('answers 404 for an unknown site, another organization and the token of another site', async () => {
      const mine = await askSite();
      const theirs = await askSite();
      const body = ask('How do I install zephyrine?', mine);
      expectError(await mine.plain.post(askPath(mine.org, 'nope'), body), 404, 'Site not found.');
      expectError(
        await theirs.org.owner.client.post(askPath(mine.org, mine.site.id), body),
        404,
        'Organization not found.',
      );
      expectError(
        await theirs.plain.post(askPath(mine.org, mine.site.id), body),
        404,
        'Site not found.',
      );
      expectError(
        await theirs.plain.get(questionsPath(mine.org, mine.site.id)),
        404,
        'Site not found.',
      );
      expect(model.requests).toHaveLength(0);
    });

    it('answers 403 while AI is off for the site or for the organization', async () => {
      const off = await askSite(t, 'none');
      const body = ask('How do I install zephyrine?', off);
      expectError(await off.plain.post(askPath(off.org, off.site.id), body), 403, 'ai.mode');
      expectError(await off.plain.get(questionsPath(off.org, off.site.id)), 403, 'ai.mode');

      const s = await askSite();
      await s.org.owner.client.patch(`/v1/orgs/${s.org.id}`, { ai: false }).expect(200);
      expectError(await s.plain.post(askPath(s.org, s.site.id), ask('Why?', s)), 403, '`ai`');
      expectError(await s.plain.get(questionsPath(s.org, s.site.id)), 403, '`ai`');
      expect(model.requests).toHaveLength(0);
    });

    it('streams recommended questions written by the model from the titles the visitor sees', async () => {
      const s = await askSite();
      const res = await s.plain.get(questionsPath(s.org, s.site.id, `?siteSpaceId=${s.guides.id}`));
      const { messages } = expectEventStream<{ question: string }>(
        res,
        'SearchAIRecommendedQuestionStream',
        GITBOOK_0202,
      );
      expect(messages).toEqual([
        { question: 'How do I use Installation?' },
        { question: 'How do I use Webhooks?' },
      ]);
      expect(JSON.stringify(model.requests[0].body.messages)).not.toContain('Quokkaveil');
    });
  });

  describe('without a model', () => {
    let bare: TestApp;
    beforeAll(async () => {
      bare = await createTestApp({ SITES_URL: ANSWER_SITES_URL });
    });
    afterAll(() => bare.close());

    it('answers the pages found as sources, and says no model is configured', async () => {
      const s = await askSite(bare);
      const res = await s.plain.post(
        askPath(s.org, s.site.id, '?format=markdown'),
        ask('How do I install the zephyrine engine?', s),
      );
      const { messages } = expectEventStream<Answer>(res, 'SearchAIAnswerStream', GITBOOK_0202);
      expect(messages).toEqual([
        {
          type: 'answer',
          answer: {
            answer: { markdown: NO_MODEL_ANSWER },
            followupQuestions: [],
            sources: [
              {
                type: 'page',
                page: s.installId,
                revision: s.revisionId,
                space: s.guides.space.id,
                sections: expect.any(Array),
              },
            ],
          },
        },
      ]);
    });

    it('recommends questions from the titles of the pages the visitor sees', async () => {
      const s = await askSite(bare);
      const plain = await s.plain.get(questionsPath(s.org, s.site.id));
      const { messages } = expectEventStream<{ question: string }>(
        plain,
        'SearchAIRecommendedQuestionStream',
        GITBOOK_0202,
      );
      expect(messages.map((message) => message.question)).toEqual([
        'What should I know about Installation?',
        'What should I know about Webhooks?',
      ]);
      const tester = parseEventStream((await s.tester.get(questionsPath(s.org, s.site.id))).text);
      expect(JSON.stringify(tester)).toContain('Quokkaveil plan');
      for (const event of tester.slice(0, -1)) {
        expectMatchesSchema(event.data, 'SearchAIRecommendedQuestionStream', GITBOOK_0202);
      }
    });
  });
});
