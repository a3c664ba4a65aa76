import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Conversation analysis with an AI endpoint (a fake OpenAI-compatible server on 127.0.0.1):
 * issue titles and summaries and cluster labels come from the model; a malformed reply falls
 * back to the rules for that conversation, so the analysis never stops on the AI.
 */

interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readJson(request: IncomingMessage): Promise<ChatRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
}

/** What the fake model answers: issues for a conversation, a label for a list of titles. */
function reply(request: ChatRequest): string {
  const [system, user] = request.messages;
  if (system.content.startsWith('You name a group')) {
    return JSON.stringify({
      label: 'Password reset emails do not arrive',
      summary: 'Users ask for a password reset and never receive the email.',
    });
  }
  if (user.content.includes('BROKEN-AI')) return 'this is not JSON';
  if (!/password/i.test(user.content)) return JSON.stringify({ issues: [] });
  return JSON.stringify({
    issues: [
      {
        title: 'Password reset email not received',
        summary: 'The user asked for a password reset and the email never arrived.',
      },
    ],
  });
}

describe('Conversation analysis with AI', () => {
  let t: TestApp;
  let org: TestOrganization;
  let ai: Server;
  const requests: ChatRequest[] = [];

  beforeAll(async () => {
    ai = createServer((request, response) => {
      void readJson(request).then((body) => {
        requests.push(body);
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply(body) } }] }),
        );
      });
    });
    await new Promise<void>((resolve) => ai.listen(0, '127.0.0.1', resolve));
    const { port } = ai.address() as AddressInfo;
    t = await createTestApp({
      AI_API_URL: `http://127.0.0.1:${port}/v1`,
      AI_MODEL: 'fake-model',
      AI_API_KEY: 'fake-key',
    });
    org = await t.factories.organization();
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => ai.close(resolve));
  });

  it('writes issue titles, summaries and cluster labels with the model', async () => {
    const body = (id: string, text: string) => ({
      id,
      parts: [{ type: 'message', role: 'user', body: text }],
    });
    await org.owner.client
      .post(`/v1/orgs/${org.id}/conversations`, [
        body('c1', 'Hello, I never got the email to change my password.'),
        body('c2', 'Password reset: nothing in my inbox after an hour.'),
        body('c3', 'Thanks for your help!'),
        // The model answers nonsense here: the rules find the issue instead.
        body('c4', "I can't reset my password, the reset link is invalid. (BROKEN-AI)"),
      ])
      .expect(204);

    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await org.owner.client.get(`/v1/orgs/${org.id}/conversations`).expect(200);
      const items = (res.body as { items: { processedAt?: string }[] }).items;
      if (items.length === 4 && items.every((c) => c.processedAt)) break;
      if (Date.now() > deadline) throw new Error('still analysing');
      await sleep(200);
    }

    const issues = await org.owner.client
      .get(`/v1/orgs/${org.id}/conversations-issues`)
      .expect(200);
    expectConforms(issues, 'listConversationsIssues');
    const titles = (issues.body as { items: { issue: { title: string } }[] }).items
      .map((item) => item.issue.title)
      .sort();
    expect(titles).toEqual([
      "I can't reset my password, the reset link is invalid.",
      'Password reset email not received',
      'Password reset email not received',
    ]);

    const clusters = await org.owner.client
      .get(`/v1/orgs/${org.id}/conversations-clusters`)
      .expect(200);
    expectConforms(clusters, 'listConversationsIssuesClusters');
    const items = (
      clusters.body as {
        items: { label: string; summary: string; icon: string; stats: { issues: number } }[];
      }
    ).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      label: 'Password reset emails do not arrive',
      summary: 'Users ask for a password reset and never receive the email.',
      icon: 'lock',
      stats: { issues: 3 },
    });

    expect(requests.length).toBeGreaterThanOrEqual(5);
    for (const request of requests) {
      expect(request.model).toBe('fake-model');
      expect(request.response_format).toEqual({ type: 'json_object' });
    }
  });
});
