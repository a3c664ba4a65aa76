import {
  expectError,
  answerSite,
  type AnswerSite,
  ANSWER_SITES_URL,
  SECRET,
} from './helpers/answers';
import { AssistantConversations } from '../src/answers/assistant/assistant-conversations';
import { createTestApp, TestApp } from './helpers/app';
import { sharedDatabase } from './helpers/database';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { expectEventStream } from './helpers/event-stream';
import {
  FOLLOW_UPS,
  type FakeChatRequest,
  type FakeChatServer,
  startFakeChatServer,
} from './helpers/fake-chat-server';

/**
 * `streamAIResponseInSite`, GitBook's site assistant: a conversation answered by a fake
 * OpenAI-compatible model that calls the assistant's tools (search the site, read a page), as
 * the caller may read the site; every event checked against GitBook 0.202.0's `AIStreamResponse`.
 */

/** One event of the stream, as tests read it. */
interface Event {
  type: string;
  messageId: string;
  stepIndex?: number;
  operation?: 'insert' | 'update';
  blocks?: object[];
  toolCall?: {
    tool: string;
    query?: string;
    results?: { pageId: string; title: string }[];
    page?: { id: string };
  };
  response?: { id?: string; previous?: string };
  suggestions?: string[];
}

type Body = FakeChatRequest['body'];
type Message = Body['messages'][number];

/** The tool results the model was given in a request, parsed. */
const toolResults = (body: Body) =>
  body.messages
    .filter((message: Message) => message.role === 'tool')
    .map((message: Message) => JSON.parse(message.content) as Record<string, unknown>);

/** The model answers once a tool has answered since the last user message. */
const answered = (body: Body) => body.messages.at(-1)?.role === 'tool';

/** The blocks of each step's text as GitBook's renderer builds them from the events. */
function stepTexts(events: Event[]): string[] {
  const steps: object[][] = [];
  for (const event of events) {
    if (event.type !== 'response_document') continue;
    const blocks = (steps[event.stepIndex!] ??= []);
    if (event.operation === 'insert') blocks.push(...event.blocks!);
    else blocks.splice(-event.blocks!.length, event.blocks!.length, ...event.blocks!);
  }
  return steps.map((blocks) => JSON.stringify(blocks ?? []));
}

describe('site assistant (e2e)', () => {
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

  const path = (org: { id: string }, siteId: string) =>
    `/v1/orgs/${org.id}/sites/${siteId}/ai/response`;

  const assistantSite = (testApp: TestApp = t, aiMode = 'assistant'): Promise<AnswerSite> =>
    answerSite(testApp, {
      aiMode,
      webhooks: 'Webhooks deliver zephyrine events to your endpoint.',
    });

  const userSays = (content: string, extra: object = {}) => ({
    input: [{ role: 'user', content }],
    model: 'reasoning-low',
    channel: { type: 'site' },
    session: { visitorId: 'visitor-1', sessionId: 'session-1' },
    ...extra,
  });

  /** The model searches for `query` first, then answers citing the first page it found. */
  function searchThenCite(query: (body: Body) => string) {
    model.options = {
      toolCalls: (body) =>
        answered(body)
          ? undefined
          : [{ name: 'search_documentation', arguments: { query: query(body) } }],
      reply: (body) => {
        const results = (toolResults(body).at(-1)?.results ?? []) as { title: string }[];
        const answer = results[0]
          ? `According to **${results[0].title}**, you install the engine with \`npm install\`.`
          : 'The documentation does not answer this question.';
        return `${answer}\n\nFollow-up questions:\n${FOLLOW_UPS.map((q) => `- ${q}`).join('\n')}\n`;
      },
    };
  }

  it('answers a conversation of two turns: the model searches, then answers citing the page', async () => {
    const s = await assistantSite();
    searchThenCite(() => 'zephyrine install');
    const first = await s.plain.post(
      path(s.org, s.site.id),
      userSays('How do I install the zephyrine engine?'),
    );
    const { messages } = expectEventStream<Event>(first, 'AIStreamResponse', GITBOOK_0202);

    const types = messages.map((event) => event.type);
    expect(types[0]).toBe('response_start');
    expect(types.at(-2)).toBe('response_finish');
    expect(types.at(-1)).toBe('response_followup_suggestion');
    expect(new Set(messages.map((event) => event.messageId)).size).toBe(1);
    // Step 0: the search, with the pages it found; step 1: the answer.
    const search = messages.find((event) => event.type === 'response_tool_call')!;
    expect(search.stepIndex).toBe(0);
    expect(search.toolCall).toMatchObject({ tool: 'search', query: 'zephyrine install' });
    expect(search.toolCall!.results!.map((result) => result.pageId)).toContain(s.installId);
    const texts = stepTexts(messages);
    expect(texts[1]).toContain('According to ');
    expect(texts[1]).toContain('Installation');
    expect(texts.join('')).not.toContain('Follow-up');
    expect(messages.at(-1)!.suggestions).toEqual(FOLLOW_UPS);
    const finish = messages.find((event) => event.type === 'response_finish')!;
    expect(finish.response!.id).toEqual(expect.any(String));

    // What the model was asked: the rules and tools, then the search's results.
    expect(model.requests).toHaveLength(2);
    const [ask, answer] = model.requests.map((request) => request.body);
    expect(ask).toMatchObject({ model: 'fake-chat', stream: true });
    expect(ask.tools!.map((tool) => tool.function.name)).toEqual([
      'search_documentation',
      'read_page',
    ]);
    expect(ask.messages[0].content).toContain('Answer only from what the tools give');
    expect(ask.messages.at(-1)).toEqual({
      role: 'user',
      content: 'How do I install the zephyrine engine?',
    });
    expect(JSON.stringify(toolResults(answer))).toContain('npm install zephyrine');

    // The second turn continues the first: the model has the question and answer before it.
    model.reset();
    searchThenCite(() => 'webhooks');
    const second = await s.plain.post(
      path(s.org, s.site.id),
      userSays('And how do webhooks work?', { previousResponseId: finish.response!.id }),
    );
    const next = expectEventStream<Event>(second, 'AIStreamResponse', GITBOOK_0202).messages;
    const nextFinish = next.find((event) => event.type === 'response_finish')!;
    expect(nextFinish.response).toEqual({
      id: expect.any(String),
      previous: finish.response!.id,
    });
    expect(
      next.find((event) => event.type === 'response_tool_call')!.toolCall!.results![0].pageId,
    ).toBe(s.webhooksId);
    const conversation = model.requests[0].body.messages.map((message) => message.content);
    expect(conversation).toContain('How do I install the zephyrine engine?');
    expect(conversation.join('\n')).toContain('According to **Installation**');
    expect(conversation.at(-1)).toBe('And how do webhooks work?');
    expect(stepTexts(next)[1]).toContain('Webhooks');

    // Both questions are recorded as the site's questions.
    const recorded = await s.org.owner.client
      .get(`/v1/orgs/${s.org.id}/sites/${s.site.id}/questions`)
      .expect(200);
    expect(JSON.stringify(recorded.body)).toContain('How do I install the zephyrine engine?');
    expect(JSON.stringify(recorded.body)).toContain('And how do webhooks work?');
  });

  it('never gives the model nor the visitor a page hidden from the visitor', async () => {
    const s = await assistantSite();
    model.options = {
      toolCalls: (body) =>
        answered(body)
          ? undefined
          : [
              { name: 'search_documentation', arguments: { query: `${SECRET} zephyrine` } },
              { name: 'read_page', arguments: { spaceId: s.guides.space.id, pageId: s.hiddenId } },
            ],
    };
    const question = userSays(`What is the ${SECRET} zephyrine engine plan?`);
    const res = await s.plain.post(path(s.org, s.site.id), question);
    const { messages } = expectEventStream<Event>(res, 'AIStreamResponse', GITBOOK_0202);
    const calls = messages.filter((event) => event.type === 'response_tool_call');
    // The search shows what it found; the read of the hidden page shows nothing.
    expect(calls.map((event) => event.toolCall!.tool)).toEqual(['search']);
    const streamed = JSON.stringify(calls);
    expect(streamed).not.toContain(s.hiddenId);
    expect(streamed).toContain(s.installId);
    const prompts = JSON.stringify(model.requests.map((request) => request.body.messages));
    expect(prompts).not.toContain('roadmap');
    expect(prompts).not.toContain('Quokkaveil plan');
    expect(prompts).toContain('No such page in this documentation.');

    // A visitor who sees the page has it searched and read.
    model.reset();
    model.options = {
      toolCalls: (body) =>
        answered(body)
          ? undefined
          : [{ name: 'read_page', arguments: { spaceId: s.guides.space.id, pageId: s.hiddenId } }],
    };
    const seen = await s.tester.post(path(s.org, s.site.id), question);
    const shown = expectEventStream<Event>(seen, 'AIStreamResponse', GITBOOK_0202).messages;
    const read = shown.find((event) => event.type === 'response_tool_call')!;
    expect(read.toolCall).toMatchObject({ tool: 'getPageContent', page: { id: s.hiddenId } });
    expect(JSON.stringify(model.requests.map((request) => request.body.messages))).toContain(
      'roadmap',
    );
  });

  it('answers from the question’s search when the endpoint takes no tools', async () => {
    const s = await assistantSite();
    model.options = { rejectTools: true };
    const res = await s.plain.post(
      path(s.org, s.site.id),
      userSays('How do I install the zephyrine engine?'),
    );
    const { messages } = expectEventStream<Event>(res, 'AIStreamResponse', GITBOOK_0202);
    const search = messages.find((event) => event.type === 'response_tool_call')!;
    expect(search.toolCall!.results![0].pageId).toBe(s.installId);
    expect(stepTexts(messages)[0]).toContain('Installation');
    expect(messages.at(-1)!.suggestions).toEqual(FOLLOW_UPS);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1].body.tools).toBeUndefined();
    expect(model.requests[1].body.messages[1].content).toContain('### Source 1: Installation');
  });

  it('answers an error event when the model is down, never a 500', async () => {
    const s = await assistantSite();
    for (const options of [{ status: 503 }, { hangUp: true }, { breakAfter: 2 }]) {
      model.options = options;
      const res = await s.plain.post(path(s.org, s.site.id), userSays('How do I install it?'));
      const { messages, error } = expectEventStream<Event>(
        res,
        'AIStreamResponse',
        GITBOOK_0202,
        'error',
      );
      expect(error).toEqual({
        code: 503,
        message: expect.stringContaining('The model could not answer'),
      });
      expect(messages[0].type).toBe('response_start');
    }
  });

  it('answers 400 for bad input, with the field named', async () => {
    const s = await assistantSite();
    const url = path(s.org, s.site.id);
    for (const [body, message] of [
      [{}, 'input'],
      [{ input: [] }, 'input'],
      [{ input: 'hello' }, 'input'],
      [{ input: [{ role: 'robot', content: 'hi' }] }, 'role'],
      [{ input: [{ role: 'user' }] }, 'content'],
      [{ input: [{ role: 'user', content: '   ' }] }, 'content'],
      [{ input: [{ role: 'user', content: 'x'.repeat(2049) }] }, 'content'],
      [{ input: [{ role: 'user', content: 42 }] }, 'content'],
      [{ input: [{ role: 'assistant', content: 'Hello.' }] }, 'user message'],
      [{ ...userSays('Hi'), model: 'huge' }, 'model'],
      [{ ...userSays('Hi'), channel: { type: 'fax' } }, 'channel.type'],
      [{ input: [], toolCall: { tool: 'x', toolCallId: 'c', output: {} } }, 'toolCall'],
    ] as const) {
      expectError(await s.plain.post(url, body), 400, message);
    }
    expect(model.requests).toHaveLength(0);
  });

  it('answers 404 for the token of another site, and 403 while AI is off', async () => {
    const mine = await assistantSite();
    const theirs = await assistantSite();
    const body = userSays('How do I install zephyrine?');
    expectError(
      await theirs.plain.post(path(mine.org, mine.site.id), body),
      404,
      'Site not found.',
    );
    expectError(
      await theirs.org.owner.client.post(path(mine.org, mine.site.id), body),
      404,
      'Organization not found.',
    );

    const off = await assistantSite(t, 'none');
    expectError(await off.plain.post(path(off.org, off.site.id), body), 403, 'ai.mode');
    await mine.org.owner.client.patch(`/v1/orgs/${mine.org.id}`, { ai: false }).expect(200);
    expectError(await mine.plain.post(path(mine.org, mine.site.id), body), 403, '`ai`');
    expect(model.requests).toHaveLength(0);
  });

  it('answers members with a role too', async () => {
    const s = await assistantSite();
    searchThenCite(() => 'zephyrine');
    const res = await s.org.owner.client.post(path(s.org, s.site.id), userSays('Install?'));
    const { messages } = expectEventStream<Event>(res, 'AIStreamResponse', GITBOOK_0202);
    expect(stepTexts(messages)[1]).toContain('According to');
  });

  it('records the renderer’s thumbs up or down on the answer it rates', async () => {
    const s = await assistantSite();
    searchThenCite(() => 'zephyrine install');
    const res = await s.plain.post(
      path(s.org, s.site.id),
      userSays('How do I install the zephyrine engine?'),
    );
    const { messages } = expectEventStream<Event>(res, 'AIStreamResponse', GITBOOK_0202);
    const responseId = messages.find((event) => event.type === 'response_finish')!.response!.id!;
    // What the renderer's AIResponseFeedback sends under the answer.
    const rate = (rating: 1 | -1, id: string) =>
      t.anonymous
        .post(`${s.base}/insights/events`, {
          events: [
            {
              type: 'ask_rate_response',
              query: 'How do I install the zephyrine engine?',
              responseId: id,
              rating,
              session: { visitorId: 'visitor-1', sessionId: 'session-1' },
              location: { url: s.url, siteSpace: s.guides.id, page: null },
            },
          ],
        })
        .expect(204);
    const rated = async () => {
      const answers = await s.org.owner.client.get(`${s.base}/answers`).expect(200);
      expectConforms(answers, 'listSiteQuestionAnswers', GITBOOK_0202);
      return (answers.body as { items: { feedback?: { rating: number } }[] }).items.map(
        (answer) => answer.feedback?.rating ?? null,
      );
    };
    expect(await rated()).toEqual([null]);
    await rate(1, 'another-response');
    await rate(1, '');
    expect(await rated()).toEqual([null]);
    await rate(-1, responseId);
    expect(await rated()).toEqual([-1]);
    await rate(1, responseId); // changed their mind
    expect(await rated()).toEqual([1]);
  });

  describe('conversations, kept in the database', () => {
    let database: Awaited<ReturnType<typeof sharedDatabase>>;
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      database = await sharedDatabase();
      const settings = {
        ...database.settings,
        SITES_URL: ANSWER_SITES_URL,
        AI_API_URL: model.url,
        AI_MODEL: 'fake-chat',
      };
      a = await createTestApp(settings, { databaseUrl: database.url });
      b = await createTestApp(settings, { databaseUrl: database.url });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.close();
    });

    const asked = () => model.requests[0].body.messages.map((message) => message.content);

    it('are continued through another process, by their owner only, for an hour', async () => {
      const s = await assistantSite(a);
      searchThenCite(() => 'zephyrine install');
      const first = await s.plain.post(
        path(s.org, s.site.id),
        userSays('How do I install the zephyrine engine?'),
      );
      const { messages } = expectEventStream<Event>(first, 'AIStreamResponse', GITBOOK_0202);
      const responseId = messages.find((event) => event.type === 'response_finish')!.response!.id;

      // Through B, with the same visitor's token: the model has the first turn before it.
      const lookup = await b.anonymous.post('/v1/urls/published', { url: s.url }).expect(200);
      const onB = b.as(lookup.body.apiToken as string);
      model.reset();
      searchThenCite(() => 'webhooks');
      await onB
        .post(path(s.org, s.site.id), userSays('And webhooks?', { previousResponseId: responseId }))
        .expect(200);
      expect(asked()).toContain('How do I install the zephyrine engine?');

      // Kept with its owner as a hash only.
      const [row]: { owner_hash: string; question: string }[] = await a.dataSource.query(
        `SELECT owner_hash, question FROM site_assistant_responses WHERE id = $1`,
        [responseId],
      );
      expect(row).toEqual({
        owner_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        question: 'How do I install the zephyrine engine?',
      });

      // Another visitor's token: answered without the turns before.
      model.reset();
      searchThenCite(() => 'webhooks');
      await s.tester
        .post(path(s.org, s.site.id), userSays('And webhooks?', { previousResponseId: responseId }))
        .expect(200);
      expect(asked()).not.toContain('How do I install the zephyrine engine?');

      // An hour later: answered without them too, and the purge deletes it.
      a.clock.advance(61 * 60 * 1000);
      model.reset();
      searchThenCite(() => 'webhooks');
      await s.plain
        .post(path(s.org, s.site.id), userSays('And webhooks?', { previousResponseId: responseId }))
        .expect(200);
      expect(asked()).not.toContain('How do I install the zephyrine engine?');
      expect(await a.bindery.app.get(AssistantConversations).purgeExpired()).toBeGreaterThan(0);
      expect(
        await a.dataSource.query(`SELECT id FROM site_assistant_responses WHERE id = $1`, [
          responseId,
        ]),
      ).toEqual([]);
    });
  });

  describe('without a model', () => {
    let bare: TestApp;
    beforeAll(async () => {
      bare = await createTestApp({ SITES_URL: ANSWER_SITES_URL });
    });
    afterAll(() => bare.close());

    it('answers the pages found, and says no model is configured', async () => {
      const s = await assistantSite(bare);
      const res = await s.plain.post(
        path(s.org, s.site.id),
        userSays('How do I install the zephyrine engine?'),
      );
      const { messages } = expectEventStream<Event>(res, 'AIStreamResponse', GITBOOK_0202);
      expect(messages.map((event) => event.type)).toEqual([
        'response_start',
        'response_step_start',
        'response_tool_call',
        'response_document',
        'response_finish',
      ]);
      expect(messages[2].toolCall!.results![0].pageId).toBe(s.installId);
      expect(stepTexts(messages)[0]).toContain('No model is configured');
    });
  });
});
