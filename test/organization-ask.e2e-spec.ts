import { NO_MODEL_ANSWER } from '../src/answers/answer-writer';
import { type AnswerEvent, type AnswerSource, expectError } from './helpers/answers';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { BINDERY_DOCUMENT, expectConforms, GITBOOK_0146 } from './helpers/conformance';
import { insertGrant, insertPage } from './helpers/content';
import { expectEventStream } from './helpers/event-stream';
import type { TestOrganization } from './helpers/factories';
import { FOLLOW_UPS, type FakeChatServer, startFakeChatServer } from './helpers/fake-chat-server';

/**
 * GitBook's organization ask (`askInOrganization`, `streamAskInOrganization`,
 * `getRecommendedQuestionsInOrganization`, `streamRecommendedQuestionsInOrganization`):
 * answers written by a fake OpenAI-compatible model from the spaces the member may read, their
 * primary content only, checked against GitBook's 0.146 schemas (errors against Bindery's
 * document, where GitBook declares none).
 */

/** Only on the page of the space guests are not granted. */
const SECRET = 'quokkaveil';
/** Only in a change request that is never merged. */
const DRAFT = 'marmalune';

interface AskOrg {
  org: TestOrganization;
  guidesId: string;
  secretId: string;
  revisionId: string;
  installId: string;
  secretPageId: string;
  /** A member with the read role (reads every space). */
  reader: Client;
  /** A guest granted the Guides space alone. */
  guest: Client;
}

describe('organization answers (e2e)', () => {
  let t: TestApp;
  let model: FakeChatServer;

  beforeAll(async () => {
    model = await startFakeChatServer();
    t = await createTestApp({ AI_API_URL: model.url, AI_MODEL: 'fake-chat' });
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });
  beforeEach(() => model.reset());

  const askPath = (orgId: string, query = '') => `/v1/orgs/${orgId}/ask${query}`;
  const streamPath = (orgId: string, question: string, query = '') =>
    `/v1/orgs/${orgId}/ask/stream?query=${encodeURIComponent(question)}${query}`;
  const questionsPath = (orgId: string) => `/v1/orgs/${orgId}/ask/questions`;

  /**
   * An organization with "Guides" (Installation: the zephyrine engine; Webhooks), "Secret
   * plans" (the quokkaveil zephyrine plan) and a change request on Guides, never merged, with a
   * page on the marmalune zephyrine engine.
   */
  async function askOrg(testApp: TestApp = t): Promise<AskOrg> {
    const org = await testApp.factories.organization({ title: 'Engine makers' });
    const guides = await testApp.factories.space(org, { title: 'Guides' });
    await testApp.factories.changeRequest(org, guides.id, {
      changes: [
        insertPage(
          'Installation',
          'Install the zephyrine engine with `npm install zephyrine`, then run it.',
        ),
        insertPage('Webhooks', 'Webhooks deliver events to your endpoint.'),
      ],
      merge: true,
    });
    await testApp.factories.changeRequest(org, guides.id, {
      changes: [insertPage('Draft engine', `The ${DRAFT} zephyrine engine install, unreleased.`)],
    });
    const secret = await testApp.factories.space(org, { title: 'Secret plans' });
    await testApp.factories.changeRequest(org, secret.id, {
      changes: [
        insertPage('Quokkaveil plan', `The ${SECRET} roadmap: a new zephyrine engine install.`),
      ],
      merge: true,
    });
    const content = await org.owner.client.get(`/v1/spaces/${guides.id}/content`).expect(200);
    const pages = content.body.pages as { id: string; title: string }[];
    const secretContent = await org.owner.client.get(`/v1/spaces/${secret.id}/content`).expect(200);
    const guestUser = await testApp.factories.member(org, null);
    await insertGrant(testApp, org, { space: guides.id }, { userId: guestUser.id });
    return {
      org,
      guidesId: guides.id,
      secretId: secret.id,
      revisionId: content.body.id as string,
      installId: pages.find((page) => page.title === 'Installation')!.id,
      secretPageId: (secretContent.body.pages as { id: string; title: string }[]).find(
        (page) => page.title === 'Quokkaveil plan',
      )!.id,
      reader: await testApp.factories.asMember(org, 'read'),
      guest: guestUser.client,
    };
  }

  /** The prompts the model was sent, as one text. */
  const prompts = () => JSON.stringify(model.requests.map((request) => request.body.messages));

  describe('with a model', () => {
    it('streams the answer from the page that answers it, with its source and follow-ups', async () => {
      const s = await askOrg();
      const res = await s.reader.get(
        streamPath(s.org.id, 'How do I install the zephyrine engine?', '&format=markdown'),
      );
      const { messages } = expectEventStream<AnswerEvent>(
        res,
        'SearchAIAnswerStream',
        GITBOOK_0146,
      );
      expect(messages.length).toBeGreaterThan(2);
      expect(messages[0].answer.answer).toEqual({});
      const last = messages.at(-1)!.answer;
      expect(last.answer).toEqual({
        markdown: 'According to **Installation**, you install the engine with `npm install`.',
      });
      expect(last.followupQuestions).toEqual(FOLLOW_UPS);
      expect(last.sources[0]).toEqual({
        type: 'page',
        page: s.installId,
        revision: s.revisionId,
        space: s.guidesId,
        sections: expect.any(Array),
      });

      // The model read the page's text and the question; never the unmerged draft.
      expect(model.requests).toHaveLength(1);
      const [system, user] = model.requests[0].body.messages;
      expect(system.content).toContain('Answer only from the sources');
      expect(system.content).toContain('Engine makers');
      expect(user.content).toContain('### Source 1: Installation (in Guides)');
      expect(user.content).toContain('npm install zephyrine');
      expect(prompts()).not.toContain(DRAFT);
      expect(res.text).not.toContain(DRAFT);
    });

    it('answers whole with askInOrganization, as a document by default or as Markdown', async () => {
      const s = await askOrg();
      const res = await s.reader
        .post(askPath(s.org.id), { query: 'How do I install the zephyrine engine?' })
        .expect(200);
      expectConforms(res, 'askInOrganization', GITBOOK_0146);
      expect(res.body.answer.answer.document).toMatchObject({ object: 'document' });
      expect(JSON.stringify(res.body.answer.answer)).toContain('Installation');
      expect(res.body.answer.followupQuestions).toEqual(FOLLOW_UPS);
      expect(res.body.answer.sources[0]).toMatchObject({ page: s.installId, space: s.guidesId });

      const markdown = await s.reader
        .post(askPath(s.org.id, '?format=markdown&details=true'), {
          query: 'zephyrine install',
          previousQueries: ['What is zephyrine?'],
        })
        .expect(200);
      expectConforms(markdown, 'askInOrganization', GITBOOK_0146);
      expect(markdown.body.answer.answer.markdown).toContain('**Installation**');
    });

    it('never draws on a space the member cannot read, and does for one who can', async () => {
      const s = await askOrg();
      const question = `What is the ${SECRET} zephyrine engine plan?`;
      const res = await s.guest.get(streamPath(s.org.id, question, '&format=markdown'));
      const { messages } = expectEventStream<AnswerEvent>(
        res,
        'SearchAIAnswerStream',
        GITBOOK_0146,
      );
      for (const message of messages) {
        for (const source of message.answer.sources) expect(source.space).toBe(s.guidesId);
      }
      expect(res.text).not.toContain(s.secretPageId);
      expect(res.text).not.toContain(s.secretId);
      expect(prompts()).not.toContain('roadmap');
      expect(prompts()).not.toContain('Secret plans');
      expect(prompts()).toContain('Installation');

      model.reset();
      const whole = await s.guest.post(askPath(s.org.id), { query: question }).expect(200);
      expectConforms(whole, 'askInOrganization', GITBOOK_0146);
      expect(JSON.stringify(whole.body)).not.toContain(s.secretId);

      // A member with a role reads every space: the plan is a source, and was read.
      model.reset();
      const seen = await s.reader.post(askPath(s.org.id), { query: question }).expect(200);
      expect((seen.body.answer.sources as AnswerSource[]).map((source) => source.page)).toContain(
        s.secretPageId,
      );
      expect(prompts()).toContain('roadmap');
    });

    it('recommends questions from the titles of the pages the member may read', async () => {
      const s = await askOrg();
      const res = await s.guest.get(questionsPath(s.org.id)).expect(200);
      expectConforms(res, 'getRecommendedQuestionsInOrganization', GITBOOK_0146);
      expect(res.body).toEqual({
        questions: ['How do I use Installation?', 'How do I use Webhooks?'],
      });
      expect(prompts()).not.toContain('Quokkaveil');
      expect(prompts()).not.toContain('Draft engine');

      const streamed = await s.reader.get(`${questionsPath(s.org.id)}/stream`);
      const { messages } = expectEventStream<{ question: string }>(
        streamed,
        'SearchAIRecommendedQuestionStream',
        GITBOOK_0146,
      );
      expect(messages.map((message) => message.question)).toEqual(
        expect.arrayContaining(['How do I use Installation?', 'How do I use Quokkaveil plan?']),
      );
    });

    it('answers 400 for bad input, with the field named', async () => {
      const s = await askOrg();
      for (const [body, field] of [
        [{}, 'query'],
        [{ query: '   ' }, 'query'],
        [{ query: 'x'.repeat(513) }, 'query'],
        [{ query: 'Why?', previousQueries: 'no' }, 'previousQueries'],
        [{ query: 'Why?', previousQueries: Array(11).fill('q') }, 'previousQueries'],
      ] as const) {
        const res = await s.reader.post(askPath(s.org.id), body);
        expectError(res, 400, field);
        expectConforms(res, 'askInOrganization', BINDERY_DOCUMENT);
      }
      expectError(
        await s.reader.post(askPath(s.org.id, '?format=html'), { query: 'Why?' }),
        400,
        'format',
      );
      const noQuery = await s.reader.get(`/v1/orgs/${s.org.id}/ask/stream`);
      expectError(noQuery, 400, 'query');
      expectConforms(noQuery, 'streamAskInOrganization', BINDERY_DOCUMENT);
      expectError(
        await s.reader.get(streamPath(s.org.id, 'Why?', '&details=maybe')),
        400,
        'details',
      );
      expect(model.requests).toHaveLength(0);
    });

    it('answers 404 to a member of another organization, and for an unknown one', async () => {
      const mine = await askOrg();
      const theirs = await t.factories.organization();
      const outsider = theirs.owner.client;
      for (const res of [
        await outsider.post(askPath(mine.org.id), { query: 'zephyrine?' }),
        await outsider.get(streamPath(mine.org.id, 'zephyrine?')),
        await outsider.get(questionsPath(mine.org.id)),
        await outsider.get(`${questionsPath(mine.org.id)}/stream`),
        await mine.reader.post(askPath('nope'), { query: 'zephyrine?' }),
      ]) {
        expectError(res, 404, 'Organization not found.');
      }
      expectConforms(
        await outsider.post(askPath(mine.org.id), { query: 'zephyrine?' }),
        'askInOrganization',
        BINDERY_DOCUMENT,
      );
      expect(model.requests).toHaveLength(0);
    });

    it("answers 403 while the organization's AI is off, and to a token limited to a space", async () => {
      const s = await askOrg();
      await s.org.owner.client.patch(`/v1/orgs/${s.org.id}`, { ai: false }).expect(200);
      for (const res of [
        await s.reader.post(askPath(s.org.id), { query: 'zephyrine?' }),
        await s.reader.get(streamPath(s.org.id, 'zephyrine?')),
        await s.reader.get(questionsPath(s.org.id)),
        await s.reader.get(`${questionsPath(s.org.id)}/stream`),
      ]) {
        expectError(res, 403, '`ai`');
      }
      expectConforms(
        await s.reader.post(askPath(s.org.id), { query: 'zephyrine?' }),
        'askInOrganization',
        BINDERY_DOCUMENT,
      );

      const on = await askOrg();
      const token = await on.org.owner.client
        .post('/v1/user/tokens', {
          label: 'Guides only',
          scopes: { access: 'read-only', organization: on.org.id, spaces: [on.guidesId] },
        })
        .expect(201);
      const limited = t.as(token.body.token as string);
      expectError(await limited.post(askPath(on.org.id), { query: 'zephyrine?' }), 403, 'limited');
      expect(model.requests).toHaveLength(0);
    });

    it('answers 503 (an error event once streaming) when the model is down or errs, never a 500', async () => {
      const s = await askOrg();
      for (const options of [
        { status: 503 },
        { status: 400 },
        { hangUp: true },
        { breakAfter: 2 },
      ]) {
        model.options = options;
        const whole = await s.reader.post(askPath(s.org.id), { query: 'zephyrine install?' });
        expectError(whole, 503, 'The model could not answer');
        expectConforms(whole, 'askInOrganization', BINDERY_DOCUMENT);

        const streamed = await s.reader.get(streamPath(s.org.id, 'zephyrine install?'));
        const { messages, error } = expectEventStream<AnswerEvent>(
          streamed,
          'SearchAIAnswerStream',
          GITBOOK_0146,
          'error',
        );
        expect(error).toEqual({
          code: 503,
          message: expect.stringContaining('The model could not answer'),
        });
        expect(messages[0].answer.sources[0].page).toBe(s.installId);

        const questions = await s.reader.get(questionsPath(s.org.id));
        expectError(questions, 503, 'The model could not suggest questions');
      }
    });
  });

  describe('without a model', () => {
    let bare: TestApp;
    beforeAll(async () => {
      bare = await createTestApp();
    });
    afterAll(() => bare.close());

    it('answers the pages found as sources, and says no model is configured', async () => {
      const s = await askOrg(bare);
      const res = await s.reader
        .post(askPath(s.org.id, '?format=markdown'), { query: 'How do I install zephyrine?' })
        .expect(200);
      expectConforms(res, 'askInOrganization', GITBOOK_0146);
      expect(res.body.answer.answer).toEqual({ markdown: NO_MODEL_ANSWER });
      expect(res.body.answer.sources[0]).toMatchObject({ page: s.installId, space: s.guidesId });

      const streamed = await s.guest.get(
        streamPath(s.org.id, 'zephyrine engine', '&format=markdown'),
      );
      const { messages } = expectEventStream<AnswerEvent>(
        streamed,
        'SearchAIAnswerStream',
        GITBOOK_0146,
      );
      expect(messages).toHaveLength(1);
      expect(messages[0].answer.answer).toEqual({ markdown: NO_MODEL_ANSWER });
      for (const source of messages[0].answer.sources) expect(source.space).toBe(s.guidesId);
    });

    it('recommends questions from the titles of the pages the member may read', async () => {
      const s = await askOrg(bare);
      const res = await s.guest.get(questionsPath(s.org.id)).expect(200);
      expectConforms(res, 'getRecommendedQuestionsInOrganization', GITBOOK_0146);
      expect(res.body.questions).toEqual([
        'What should I know about Installation?',
        'What should I know about Webhooks?',
      ]);
    });
  });
});
