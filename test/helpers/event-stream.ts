import { expectMatchesSchema, type GitbookSpec } from './conformance';

/** One server-sent event: its `event` name (undefined for a message) and its data, parsed. */
export interface StreamedEvent {
  event?: string;
  data: unknown;
}

/**
 * The events of a server-sent event stream's text, as `@gitbook/api`'s client reads them
 * (eventsource-parser): fields up to a blank line, `data` lines joined by newlines, events
 * without data dropped.
 */
export function parseEventStream(text: string): StreamedEvent[] {
  const events: StreamedEvent[] = [];
  let event: string | undefined;
  let data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) });
      event = undefined;
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else throw new Error(`Unknown server-sent event field "${field}" in: ${line}`);
  }
  if (data.length > 0) throw new Error('The stream ends inside an event (no blank line after it)');
  return events;
}

/**
 * A GitBook stream, checked: every message event conforms to `schema` (a component schema of
 * `spec`), the stream ends with `event: done`, or with `event: error` carrying
 * `{error: {code, message}}` when `ending` says so. Answers the messages' data.
 */
export function expectEventStream<T>(
  res: { status: number; headers: Record<string, string>; text: string },
  schema: string,
  spec: GitbookSpec,
  ending: 'done' | 'error' = 'done',
): { messages: T[]; error?: { code: number; message: string } } {
  if (res.status !== 200) throw new Error(`Expected a stream, got ${res.status}: ${res.text}`);
  if (!/^text\/event-stream/.test(res.headers['content-type'] ?? '')) {
    throw new Error(`Expected text/event-stream, got ${res.headers['content-type']}`);
  }
  const events = parseEventStream(res.text);
  const last = events.at(-1);
  if (last?.event !== ending) {
    throw new Error(
      `Expected the stream to end with event: ${ending}, got ${JSON.stringify(last)}`,
    );
  }
  const messages = events.slice(0, -1);
  for (const message of messages) {
    if (message.event !== undefined) {
      throw new Error(`Unexpected event "${message.event}" before the end of the stream`);
    }
    expectMatchesSchema(message.data, schema, spec);
  }
  const error =
    ending === 'error'
      ? (last.data as { error: { code: number; message: string } }).error
      : undefined;
  if (error && (typeof error.code !== 'number' || typeof error.message !== 'string')) {
    throw new Error(`An error event must carry {error: {code, message}}: ${JSON.stringify(last)}`);
  }
  return { messages: messages.map((message) => message.data as T), error };
}
