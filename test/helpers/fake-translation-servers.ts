import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake translation service on 127.0.0.1 speaking the three protocols Bindery supports:
 * LibreTranslate (`POST /translate`, `format: "html"` keeps `<g id>`/`<x id>` elements), DeepL
 * (`POST /v2/translate`, `tag_handling: "xml"` keeps XML elements; `/v2/glossaries` to create,
 * list and delete glossaries, applied through `glossary_id`) and OpenAI-compatible chat
 * completions (`POST /v1/chat/completions`: `<g1>…</g1>`, `<x2/>` tags in JSON strings, the
 * glossary read from the prompt). Its translation is deterministic: every word gets the target
 * language as a prefix (`Hello world` → `[fr]Hello [fr]world`), a glossary term becomes its
 * translation as it is, and tags are kept around the words they wrap. Told to `reorder`, it
 * also reverses the order of the words and tags of each segment (as a translation into a
 * language with another word order would). Tags it was not told to keep (a format or tag
 * handling it was not asked for) are translated as words, which breaks them. It records every
 * text it was asked to translate, and can be told to fail or to drop placeholders.
 */

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeTranslationServer {
  origin: string;
  requests: ReceivedRequest[];
  /** Every text received, in order, all protocols together. */
  texts: string[];
  /** The next `times` requests answer `status` (with an error body). */
  fail(status: number, times?: number): void;
  /** Every answer waits this long first (to keep a run running for a while). */
  delay(ms: number): void;
  /** Most requests ever served at the same time. */
  maxConcurrent(): number;
  /** Forgets the requests and texts received so far. */
  reset(): void;
  /** Reverses the order of words and tags in every answer (true) or not (false, the default). */
  reorder(on: boolean): void;
  /** The next `times` answers for texts containing `word` lose their placeholders. */
  dropPlaceholders(word: string, times: number): void;
  /** DeepL glossaries that exist now, by id. */
  glossaries: Map<string, { entries: string; source_lang: string; target_lang: string }>;
  close(): Promise<void>;
}

/** How the fake reads placeholders: none (all words), XML/HTML elements, numbered tags. */
export type FakeMarkup = 'text' | 'xml' | 'tags';

export interface FakeOptions {
  markup?: FakeMarkup;
  reorder?: boolean;
  glossary?: { source: string; target: string }[];
}

type FakeItem =
  | { kind: 'word'; text: string }
  | { kind: 'space'; text: string }
  | { kind: 'open' | 'close' | 'atom'; text: string };

const TAGS: Record<Exclude<FakeMarkup, 'text'>, RegExp> = {
  xml: /<\/?[gx](?:\s+id="\d+")?\s*\/?>/g,
  tags: /<\/?[gx]\d+\s*\/?>/g,
};

/** What the fake translator makes of `text` in `language`. */
export function fakeTranslation(text: string, language: string, options: FakeOptions = {}): string {
  const markup = options.markup ?? 'text';
  const items: FakeItem[] = [];
  const words = (chunk: string) => {
    let rest = chunk;
    for (const term of [...(options.glossary ?? [])].sort(
      (a, b) => b.source.length - a.source.length,
    )) {
      rest = rest.replace(
        new RegExp(`\\b${term.source}\\b`, 'gi'),
        `\u{e000}${term.target}\u{e000}`,
      );
    }
    // Glossary terms are marked with a private-use character, kept as they are.
    rest.split(/(\u{e000}[^\u{e000}]*\u{e000})/u).forEach((part) => {
      if (part.startsWith('\u{e000}')) {
        items.push({ kind: 'atom', text: part.slice(1, -1) });
        return;
      }
      for (const piece of part.split(/(\s+)/)) {
        if (piece === '') continue;
        items.push({ kind: piece.trim() === '' ? 'space' : 'word', text: piece });
      }
    });
  };
  if (markup === 'text') {
    words(text);
  } else {
    let at = 0;
    for (const match of text.matchAll(TAGS[markup])) {
      words(text.slice(at, match.index));
      const tag = match[0];
      items.push({
        kind: tag.startsWith('</')
          ? 'close'
          : tag.endsWith('/>') || tag.startsWith('<x')
            ? 'atom'
            : 'open',
        text: tag,
      });
      at = match.index + tag.length;
    }
    words(text.slice(at));
  }
  const translated = items.map((item) =>
    item.kind === 'word' ? { ...item, text: `[${language}]${item.text}` } : item,
  );
  if (!options.reorder) return translated.map((item) => item.text).join('');
  // Top-level units (a word, an atom, or a tag with all it wraps), reversed.
  const units: string[] = [];
  let depth = 0;
  let unit = '';
  for (const item of translated) {
    if (item.kind === 'space') {
      if (depth > 0) unit += item.text;
      else if (unit) {
        units.push(unit);
        unit = '';
      }
      continue;
    }
    if (item.kind === 'close' && item.text === '</x>') {
      // The end of an HTML atom, which went out as a unit of its own.
      if (unit) unit += item.text;
      else units[units.length - 1] += item.text;
      continue;
    }
    unit += item.text;
    if (item.kind === 'open') depth++;
    if (item.kind === 'close') depth--;
    if (depth === 0 && item.kind !== 'open') {
      units.push(unit);
      unit = '';
    }
  }
  if (unit) units.push(unit);
  return units.reverse().join(' ');
}

/** `text` without its placeholders (what a provider that loses them answers). */
const withoutPlaceholders = (text: string): string =>
  text.replace(TAGS.xml, '').replace(TAGS.tags, '');

export async function startFakeTranslationServer(): Promise<FakeTranslationServer> {
  const requests: ReceivedRequest[] = [];
  const texts: string[] = [];
  let failures: { status: number; times: number } | null = null;
  let delayMs = 0;
  let reorder = false;
  let drops: { word: string; times: number } | null = null;
  const glossaries = new Map<
    string,
    { entries: string; source_lang: string; target_lang: string }
  >();
  /** Applies a pending `dropPlaceholders` to one answer. */
  const maybeDrop = (source: string, answer: string): string => {
    if (!drops || drops.times <= 0 || !source.includes(drops.word)) return answer;
    drops.times--;
    return withoutPlaceholders(answer);
  };
  let active = 0;
  let peak = 0;

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      active++;
      peak = Math.max(peak, active);
      res.on('close', () => active--);
      setTimeout(() => respond(req, res, Buffer.concat(chunks)), delayMs);
    });
  });
  const respond = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    const path = req.url ?? '';
    const method = req.method ?? 'GET';
    requests.push({ path, headers: req.headers, body });
    if (failures && failures.times > 0) {
      failures.times--;
      answer(res, failures.status, { error: 'The fake translator fails on purpose.' });
      return;
    }
    if (req.method === 'POST' && path === '/translate') {
      const q = body.q as string[];
      texts.push(...q);
      const markup = body.format === 'html' ? 'xml' : 'text';
      answer(res, 200, {
        translatedText: q.map((text) =>
          maybeDrop(text, fakeTranslation(text, String(body.target), { markup, reorder })),
        ),
      });
      return;
    }
    if (
      path.startsWith('/v2/') &&
      !String(req.headers.authorization ?? '').startsWith('DeepL-Auth-Key ')
    ) {
      answer(res, 403, { message: 'Wrong authorization' });
      return;
    }
    if (method === 'POST' && path === '/v2/glossaries') {
      const pair = `${String(body.source_lang)}-${String(body.target_lang)}`;
      if (body.entries_format !== 'tsv' || /-.*-/.test(pair)) {
        answer(res, 400, { message: 'Unsupported glossary' });
        return;
      }
      const id = `glossary-${glossaries.size + 1}-${Date.now()}`;
      glossaries.set(id, {
        entries: String(body.entries),
        source_lang: String(body.source_lang),
        target_lang: String(body.target_lang),
      });
      answer(res, 201, { glossary_id: id, name: body.name, ready: true, entry_count: 1 });
      return;
    }
    if (method === 'DELETE' && path.startsWith('/v2/glossaries/')) {
      const existed = glossaries.delete(path.slice('/v2/glossaries/'.length));
      res.statusCode = existed ? 204 : 404;
      res.end();
      return;
    }
    if (method === 'POST' && path === '/v2/translate') {
      const text = body.text as string[];
      texts.push(...text);
      const target = String(body.target_lang).toLowerCase();
      const glossary = body.glossary_id ? glossaries.get(String(body.glossary_id)) : undefined;
      if (body.glossary_id && !glossary) {
        answer(res, 404, { message: 'Glossary not found' });
        return;
      }
      const terms = (glossary?.entries ?? '')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [source, target] = line.split('\t');
          return { source, target };
        });
      const markup = body.tag_handling === 'xml' ? 'xml' : 'text';
      answer(res, 200, {
        translations: text.map((t) => ({
          detected_source_language: 'EN',
          text: maybeDrop(t, fakeTranslation(t, target, { markup, reorder, glossary: terms })),
        })),
      });
      return;
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const messages = body.messages as { role: string; content: string }[];
      const system = messages.find((m) => m.role === 'system')?.content ?? '';
      const target = /to [^\n]*?\(([a-z-]+)\)\./.exec(system)?.[1] ?? '??';
      const glossary = [...system.matchAll(/^("[^"]*") → ("[^"]*")$/gm)].map((m) => ({
        source: JSON.parse(m[1]) as string,
        target: JSON.parse(m[2]) as string,
      }));
      const segments = JSON.parse(
        messages.find((m) => m.role === 'user')?.content ?? '{}',
      ) as Record<string, string>;
      texts.push(...Object.values(segments));
      const translated = Object.fromEntries(
        Object.entries(segments).map(([id, text]) => [
          id,
          maybeDrop(text, fakeTranslation(text, target, { markup: 'tags', reorder, glossary })),
        ]),
      );
      answer(res, 200, {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: JSON.stringify(translated) } },
        ],
      });
      return;
    }
    answer(res, 404, { error: `No route ${req.method} ${path}` });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    texts,
    fail: (status, times = 1) => {
      failures = { status, times };
    },
    delay: (ms) => {
      delayMs = ms;
    },
    maxConcurrent: () => peak,
    reset: () => {
      requests.length = 0;
      texts.length = 0;
    },
    reorder: (on) => {
      reorder = on;
    },
    dropPlaceholders: (word, times) => {
      drops = { word, times };
    },
    glossaries,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
