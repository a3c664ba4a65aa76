import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible server on 127.0.0.1 for the conversation analysis: `/chat/completions`
 * writes issue titles and summaries and cluster labels, `/embeddings` answers deterministic
 * vectors that say each text's topic. A topic is recognised by its words (TOPIC_WORDS, the
 * labelled corpus's label words and a few synonyms TF-IDF cannot know); its vector is the
 * topic's axis plus a small noise drawn from a hash of the text, so texts of one topic are close
 * (cosine about 0.9) and texts of different topics, or of none, far apart.
 */

export const TOPIC_WORDS: Record<string, string[]> = {
  'password-reset': ['password', 'reset'],
  sso: ['sso', 'saml', 'single', 'sign', 'okta', 'identity', 'assertion'],
  billing: ['invoice', 'charged', 'billing', 'charge', 'payment', 'refund', 'receipt'],
  'custom-domain': ['domain', 'dns', 'cname', 'certificate'],
  'pdf-export': ['pdf', 'export'],
  'git-sync': ['git', 'github', 'gitlab', 'sync', 'repository'],
  search: ['search', 'results', 'index'],
  invites: ['invite', 'invitation', 'invitations', 'invited', 'member', 'members', 'seat', 'seats'],
};
const TOPICS = Object.keys(TOPIC_WORDS);
/** Topic axes, then noise axes. */
const DIMENSIONS = TOPICS.length + 8;
const NOISE = 0.15;

export interface FakeAiRequest {
  path: string;
  body: {
    model?: string;
    input?: unknown;
    messages?: { role: string; content: string }[];
    response_format?: { type: string };
  };
}

export interface FakeAiServer {
  /** Base URL, for AI_API_URL. */
  url: string;
  requests: FakeAiRequest[];
  /** What the server does, changeable while it runs. */
  options: FakeAiOptions;
  close(): Promise<void>;
}

export interface FakeAiOptions {
  /** Status `/embeddings` answers instead of vectors (e.g. 503, retried, then given up). */
  embeddingsStatus?: number;
}

/** The topic of a text: the one whose words it uses most (ties to the first), or none. */
export function topicOf(text: string): string | undefined {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  let best: string | undefined;
  let bestCount = 0;
  for (const topic of TOPICS) {
    const count = words.filter((word) => TOPIC_WORDS[topic].includes(word)).length;
    if (count > bestCount) [best, bestCount] = [topic, count];
  }
  return best;
}

/** The fake vector of a text: its topic's axis (none: a noise axis) plus hashed noise. */
export function fakeEmbedding(text: string): number[] {
  const hash = createHash('sha256').update(text).digest();
  const vector = Array.from({ length: DIMENSIONS }, (_, i) => ((hash[i] / 255) * 2 - 1) * NOISE);
  const topic = topicOf(text);
  // Without a topic, the text points along a noise axis of its own hash: near nothing else.
  vector[topic === undefined ? TOPICS.length + (hash[31] % 8) : TOPICS.indexOf(topic)] += 1;
  return vector;
}

function chatReply(body: FakeAiRequest['body']): string {
  const [system, user] = body.messages ?? [];
  if (system?.content.startsWith('You name a group')) {
    const titles = user.content.split('\n');
    const counts = new Map<string, number>();
    for (const title of titles) {
      const topic = topicOf(title) ?? 'other';
      counts.set(topic, (counts.get(topic) ?? 0) + 1);
    }
    const topic = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
    return JSON.stringify({
      label: `Model label: ${topic}`,
      summary: `Model summary of ${titles.length} issues about ${topic}.`,
    });
  }
  // An issue per conversation: the first sentence of the user's first message that names a
  // topic, as the model would put it; none when the message names none.
  const first = (user?.content ?? '')
    .split(/\n\n(?=(?:user|assistant|team-member): )/)
    .find((part) => part.startsWith('user: '));
  const text = (first ?? '').slice('user: '.length).replace(/\s+/g, ' ');
  const sentence = text.split(/(?<=[.?!])\s/).find((s) => topicOf(s) !== undefined);
  if (!sentence) return JSON.stringify({ issues: [] });
  return JSON.stringify({
    issues: [
      {
        title: sentence.split(' ').slice(0, 12).join(' '),
        summary: `Model summary: ${sentence.slice(0, 300)}`,
      },
    ],
  });
}

async function readBody(request: IncomingMessage): Promise<FakeAiRequest['body']> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeAiRequest['body'];
}

export async function startFakeAiServer(options: FakeAiOptions = {}): Promise<FakeAiServer> {
  const requests: FakeAiRequest[] = [];
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = (request.url ?? '').replace(/^\/v1/, '');
      requests.push({ path, body });
      response.setHeader('content-type', 'application/json');
      if (path === '/embeddings') {
        if (options.embeddingsStatus !== undefined) {
          response.statusCode = options.embeddingsStatus;
          response.end(JSON.stringify({ error: { message: 'embeddings are down' } }));
          return;
        }
        const input = body.input as string[];
        response.end(
          JSON.stringify({
            object: 'list',
            model: body.model,
            // In reverse: the client must place vectors by index.
            data: input
              .map((text, index) => ({
                object: 'embedding',
                index,
                embedding: fakeEmbedding(text),
              }))
              .reverse(),
          }),
        );
        return;
      }
      if (path === '/chat/completions') {
        response.end(
          JSON.stringify({
            choices: [{ message: { role: 'assistant', content: chatReply(body) } }],
          }),
        );
        return;
      }
      response.statusCode = 404;
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    options,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
