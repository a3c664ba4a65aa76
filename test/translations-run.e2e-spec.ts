import { OutboxEvent } from '../src/platform/events/outbox-event.entity';
import { ContentWriter, type ContentChange } from '../src/content-engine/writes/content-writer';
import { newId } from '../src/platform/ids/ids';
import { createTestApp, TestApp } from './helpers/app';
import type { TranslationBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import {
  fakeTranslation,
  startFakeTranslationServer,
  type FakeTranslationServer,
} from './helpers/fake-translation-servers';

/**
 * Runs of translations against a fake provider on 127.0.0.1 (one per protocol): the result
 * space and what is kept of the source (page tree, slugs, files, structure, code, URLs,
 * variables), re-runs that translate only the pages that changed, statistics, failures that
 * keep the last result, and one run at a time.
 */

interface PageBody {
  id: string;
  title: string;
  slug?: string;
  description?: string;
  pages: PageBody[];
  document?: { nodes: Node[] };
}

interface Node {
  object: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: Node[];
  leaves?: { text: string; marks: { type: string }[] }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const text = (value: string, marks: string[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});

/** A JSON document with a heading, bold text, a variable and inline code. */
const FAQ_DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    { object: 'block', type: 'heading-2', nodes: [text('Common questions')] },
    {
      object: 'block',
      type: 'paragraph',
      nodes: [
        text('Version '),
        {
          object: 'inline',
          type: 'expression',
          isVoid: true,
          data: { expression: 'space.vars.version' },
        },
        text(' is '),
        {
          object: 'text',
          leaves: [{ object: 'leaf', text: 'stable', marks: [{ object: 'mark', type: 'bold' }] }],
        },
        text('; call '),
        text('getVersion()', ['code']),
        text('.'),
      ],
    },
  ],
};

const GETTING_STARTED = [
  'Welcome to the product.',
  '',
  'Run `npm install` then read [the guide](https://example.com/guide).',
  '',
  '```js',
  'const greeting = "hello world";',
  '```',
  '',
].join('\n');

/** Leaf texts of a document, in order. */
function leafTexts(nodes: Node[] | undefined): string[] {
  return (nodes ?? []).flatMap((node) =>
    node.object === 'text' ? (node.leaves ?? []).map((leaf) => leaf.text) : leafTexts(node.nodes),
  );
}

/**
 * A document with its leaf texts blanked and neighbouring text nodes as one: what a translation
 * must keep (a block is rebuilt from its translation, so how its leaves were split may change).
 */
function structure(nodes: Node[] | undefined): unknown {
  const merged = (list: Node[]): Node[] =>
    list.reduce<Node[]>((result, node) => {
      const last = result[result.length - 1];
      if (node.object === 'text' && last?.object === 'text') {
        last.leaves = [...(last.leaves ?? []), ...(node.leaves ?? [])];
        return result;
      }
      const copy = { ...node };
      if (copy.object === 'text') delete (copy as { key?: string }).key;
      if (copy.nodes) copy.nodes = merged(copy.nodes);
      return [...result, copy];
    }, []);
  return JSON.parse(
    JSON.stringify(merged(nodes ?? []), (key, value: unknown) => (key === 'text' ? '' : value)),
  );
}

class Harness {
  org!: TestOrganization;
  source!: string;
  collection!: string;
  pages = { start: newId(), install: newId(), faq: newId() };

  constructor(
    readonly t: TestApp,
    readonly server: FakeTranslationServer,
  ) {}

  static async start(settings: (origin: string) => Record<string, string>): Promise<Harness> {
    const server = await startFakeTranslationServer();
    const t = await createTestApp(settings(server.origin));
    const h = new Harness(t, server);
    h.org = await t.factories.organization();
    h.collection = (await t.factories.collection(h.org, { title: 'Collection' })).id;
    h.source = (
      await t.factories.space(h.org, { title: 'Handbook', parent: h.collection, empty: true })
    ).id;
    await h.write(async (writer, manager) => {
      const file = await writer.storeFile(manager, {
        name: 'notes.txt',
        contentType: 'text/plain',
        data: Buffer.from('keep me'),
      });
      return [
        {
          operation: 'insert_page',
          id: h.pages.start,
          meta: { title: 'Getting started', description: 'First steps' },
          document: { markdown: GETTING_STARTED },
        },
        {
          operation: 'insert_page',
          id: h.pages.install,
          meta: { title: 'Install' },
          document: { markdown: 'Install the package with care.\n' },
          into: h.pages.start,
        },
        {
          operation: 'insert_page',
          id: h.pages.faq,
          meta: { title: 'FAQ' },
          document: FAQ_DOCUMENT,
        },
        { operation: 'insert_file', file: file.hash },
      ] as ContentChange[];
    });
    return h;
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.server.close();
  }

  /** Commits changes on the source's primary revision through the content writer. */
  async write(
    changes: (
      writer: ContentWriter,
      manager: import('typeorm').EntityManager,
    ) => Promise<ContentChange[]>,
  ): Promise<void> {
    this.t.clock.advance(1000);
    const writer = this.t.bindery.app.get(ContentWriter);
    await this.t.dataSource.transaction(async (manager) => {
      const [row]: { revision_id: string }[] = await manager.query(
        'SELECT revision_id FROM spaces WHERE id = $1',
        [this.source],
      );
      const list = await changes(writer, manager);
      await writer.commitOnPrimary(manager, {
        spaceId: this.source,
        expectedRevisionId: row.revision_id,
        authorId: null,
        type: 'edits',
        changes: list,
      });
    });
  }

  path(id = ''): string {
    return `/v1/orgs/${this.org.id}/translations${id ? `/${id}` : ''}`;
  }

  async get(id: string): Promise<TranslationBody> {
    const res = await this.org.owner.client.get(this.path(id)).expect(200);
    expectConforms(res, 'getTranslation');
    return res.body as TranslationBody;
  }

  /** Asks for a run and waits until the translation is completed again. */
  async run(id: string): Promise<TranslationBody> {
    const res = await this.org.owner.client.post(`${this.path(id)}/run`).expect(204);
    expectConforms(res, 'runTranslation');
    return this.completed(id);
  }

  async completed(id: string): Promise<TranslationBody> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const body = await this.get(id);
      if (body.status === 'completed') return body;
      if (Date.now() > deadline) throw new Error(`Translation ${id} is still ${body.status}`);
      await sleep(100);
    }
  }

  async listPages(space: string): Promise<PageBody[]> {
    const res = await this.org.owner.client.get(`/v1/spaces/${space}/content/pages`).expect(200);
    return res.body.pages as PageBody[];
  }

  async page(space: string, page: string): Promise<PageBody> {
    const res = await this.org.owner.client
      .get(`/v1/spaces/${space}/content/page/${page}?format=document`)
      .expect(200);
    return res.body as PageBody;
  }
}

/** The page tree as ids, slugs and nesting. */
const tree = (pages: PageBody[]): unknown =>
  pages.map((page) => ({ id: page.id, slug: page.slug, pages: tree(page.pages) }));

describe('Translation runs (LibreTranslate protocol)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start((origin) => ({
      TRANSLATION_PROVIDER: 'libretranslate',
      TRANSLATION_API_URL: origin,
      TRANSLATION_API_KEY: 'libre-key',
    }));
  });
  afterAll(() => h.close());

  it('translates the text into a new space beside the source, keeping everything else', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'fr' });
    h.server.reset();
    const done = await h.run(created.id);
    expect(done.lastRunError).toBeUndefined();
    expect(done.result).toEqual({ space: expect.any(String), revision: expect.any(String) });
    const result = done.result!.space;
    expect(result).not.toBe(h.source);

    // A normal space, beside the source, in the target language, at the revision recorded.
    const space = await h.org.owner.client.get(`/v1/spaces/${result}`).expect(200);
    expect(space.body).toMatchObject({ language: 'fr', parent: h.collection });
    const content = await h.org.owner.client.get(`/v1/spaces/${result}/content`).expect(200);
    expect(content.body.id).toBe(done.result!.revision);

    // Same tree, ids and slugs; titles and descriptions translated.
    const source = await h.listPages(h.source);
    const translated = await h.listPages(result);
    expect(tree(translated)).toEqual(tree(source));
    expect(translated.map((p) => p.title)).toEqual(['[fr]Getting [fr]started', '[fr]FAQ']);
    expect(translated[0].description).toBe('[fr]First [fr]steps');
    expect(translated[0].pages[0]).toMatchObject({ title: '[fr]Install', slug: 'install' });

    // Documents: same structure; text translated; code, inline code, URLs and variables kept.
    for (const id of Object.values(h.pages)) {
      const before = await h.page(h.source, id);
      const after = await h.page(result, id);
      expect(structure(after.document?.nodes)).toEqual(structure(before.document?.nodes));
    }
    const start = await h.page(result, h.pages.start);
    const texts = leafTexts(start.document?.nodes);
    expect(texts).toEqual(
      expect.arrayContaining([
        '[fr]Welcome [fr]to [fr]the [fr]product.',
        'npm install',
        '[fr]the [fr]guide',
        'const greeting = "hello world";',
      ]),
    );
    expect(JSON.stringify(start.document)).toContain('https://example.com/guide');
    const faq = await h.page(result, h.pages.faq);
    expect(leafTexts(faq.document?.nodes)).toEqual([
      '[fr]Common [fr]questions',
      '[fr]Version ',
      ' [fr]is ',
      '[fr]stable',
      '[fr]; [fr]call ',
      'getVersion()',
      '[fr].',
    ]);
    expect(JSON.stringify(faq.document)).toContain('"expression":"space.vars.version"');

    // Nothing but text went to the provider, with the key and the languages.
    for (const sent of h.server.texts) {
      expect(sent).not.toMatch(/npm install|hello world|example\.com|getVersion/);
    }
    expect(h.server.requests[0].body).toMatchObject({
      source: 'en',
      target: 'fr',
      format: 'html',
      api_key: 'libre-key',
    });

    // The file is there too.
    const files = await h.org.owner.client.get(`/v1/spaces/${result}/content/files`).expect(200);
    expect((files.body.items as { name: string }[]).map((f) => f.name)).toEqual(['notes.txt']);

    // Statistics: true integers that add up.
    // Words of the texts sent, placeholders aside.
    const words = h.server.texts.reduce(
      (sum, t) =>
        sum +
        t
          .replace(/<[^>]+>/g, '')
          .split(/\s+/)
          .filter(Boolean).length,
      0,
    );
    const characters = h.server.texts.reduce(
      (sum, t) => sum + t.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').length,
      0,
    );
    expect(done.stats).toEqual({
      runs: 1,
      totalWords: words,
      totalPages: 3,
      totalDuration: expect.any(Number),
      latestRunDuration: expect.any(Number),
      latestPages: 3,
      latestWords: words,
      latestSegments: h.server.texts.length,
      latestCachedSegments: 0,
      latestCharacters: characters,
      totalSegments: h.server.texts.length,
      totalCharacters: characters,
      latestRunDurationMs: expect.any(Number),
      totalDurationMs: expect.any(Number),
    });
    // A run takes time: seconds rounded up, so never 0.
    expect(done.stats.latestRunDuration).toBeGreaterThanOrEqual(1);
    expect(done.stats.totalDuration).toBe(Math.ceil(done.stats.totalDurationMs / 1000));
    for (const value of Object.values(done.stats)) expect(Number.isInteger(value)).toBe(true);
  });

  it('re-runs translate only the pages whose source changed', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'de' });
    const first = await h.run(created.id);
    await h.write(async () => [
      {
        operation: 'set_document',
        page: h.pages.install,
        document: { markdown: 'Install the package quickly.\n' },
      },
    ]);
    h.server.reset();
    const second = await h.run(created.id);
    // The edited page's changed paragraph only: its title is unchanged, so reused.
    expect(h.server.texts).toEqual(['Install the package quickly.']);
    expect(second.result!.space).toBe(first.result!.space);
    expect(second.result!.revision).not.toBe(first.result!.revision);
    expect(second.stats).toMatchObject({
      runs: 2,
      latestPages: 1,
      latestWords: 4,
      latestSegments: 2,
      latestCachedSegments: 1,
      latestCharacters: 'Install the package quickly.'.length,
      totalPages: first.stats.totalPages + 1,
      totalWords: first.stats.totalWords + 4,
    });
    expect(second.stats.totalDurationMs).toBeCloseTo(
      first.stats.totalDurationMs + second.stats.latestRunDurationMs,
      -1,
    );
    const install = await h.page(second.result!.space, h.pages.install);
    expect(leafTexts(install.document?.nodes)).toEqual([
      '[de]Install [de]the [de]package [de]quickly.',
    ]);
    const start = await h.page(second.result!.space, h.pages.start);
    expect(start.title).toBe('[de]Getting [de]started');

    // Nothing changed: nothing sent, and no new revision in the result.
    h.server.reset();
    const third = await h.run(created.id);
    expect(h.server.texts).toEqual([]);
    expect(third.stats).toMatchObject({
      runs: 3,
      latestPages: 0,
      latestWords: 0,
      latestSegments: 0,
      latestCharacters: 0,
    });
    expect(third.result).toEqual(second.result);
    const content = await h.org.owner.client.get(`/v1/spaces/${third.result!.space}/content`);
    expect(content.body.id).toBe(second.result!.revision);
  });

  it('a provider failure is recorded and leaves the previous result', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'es' });
    const first = await h.run(created.id);
    await h.write(async () => [
      { operation: 'update_page', page: h.pages.faq, meta: { title: 'Questions' } },
    ]);
    h.server.fail(400, 1);
    const failed = await h.run(created.id);
    expect(failed.lastRunError).toEqual({
      message: expect.stringContaining('400'),
      failedAt: expect.any(String),
    });
    expect(failed.result).toEqual(first.result);
    expect(failed.stats).toEqual(first.stats);
    const faq = await h.page(first.result!.space, h.pages.faq);
    expect(faq.title).toBe('[es]FAQ');

    // A server error is retried; the next run succeeds and clears the error.
    h.server.fail(503, 1);
    const fixed = await h.run(created.id);
    expect(fixed.lastRunError).toBeUndefined();
    expect(fixed.stats.runs).toBe(2);
    expect((await h.page(fixed.result!.space, h.pages.faq)).title).toBe('[es]Questions');

    // Each run's end is an event: success (with its result), failure (with its error).
    const finished = await h.t.dataSource
      .getRepository(OutboxEvent)
      .createQueryBuilder('e')
      .where('e.type = :type AND e.resource_key = :key', {
        type: 'translation_run_finished',
        key: `translation:${created.id}`,
      })
      .orderBy('e.sequence')
      .getMany();
    expect(finished.map((event) => event.payload)).toEqual([
      expect.objectContaining({ state: 'success', revisionId: first.result!.revision }),
      expect.objectContaining({ state: 'failure', error: expect.stringContaining('400') }),
      expect.objectContaining({
        state: 'success',
        translationId: created.id,
        language: 'es',
        resultSpaceId: fixed.result!.space,
        revisionId: fixed.result!.revision,
      }),
    ]);
    await h.write(async () => [
      { operation: 'update_page', page: h.pages.faq, meta: { title: 'FAQ' } },
    ]);
  });

  it('never runs twice at once: a run asked for during a run follows it', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'it' });
    h.server.delay(700);
    try {
      await h.org.owner.client.post(`${h.path(created.id)}/run`).expect(204);
      const deadline = Date.now() + 10_000;
      while ((await h.get(created.id)).status !== 'running') {
        if (Date.now() > deadline) throw new Error('The run never started');
        await sleep(50);
      }
      await h.org.owner.client.post(`${h.path(created.id)}/run`).expect(204);
      await h.org.owner.client.post(`${h.path(created.id)}/run`).expect(204);
      expect((await h.get(created.id)).status).toBe('running');
      let done = await h.completed(created.id);
      // The run asked for meanwhile may still be queued when the first completes.
      const until = Date.now() + 15_000;
      while (done.stats.runs < 2 && Date.now() < until) {
        await sleep(200);
        done = await h.completed(created.id);
      }
      expect(done.stats.runs).toBe(2);
      expect(h.server.maxConcurrent()).toBe(1);
    } finally {
      h.server.delay(0);
    }
  });

  it('a new result space is made when the last one was deleted; deleting keeps the space', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'nl' });
    const first = await h.run(created.id);
    await h.org.owner.client.delete(`/v1/spaces/${first.result!.space}`).expect(204);
    const second = await h.run(created.id);
    expect(second.result!.space).not.toBe(first.result!.space);
    // The new space gets every page, from the translations already made (none sent again).
    expect(second.stats.latestPages).toBe(0);
    const pages = await h.listPages(second.result!.space);
    expect(pages.map((p) => p.title)).toEqual(['[nl]Getting [nl]started', '[nl]FAQ']);

    await h.org.owner.client.delete(h.path(created.id)).expect(204);
    await h.org.owner.client.get(`/v1/spaces/${second.result!.space}`).expect(200);
  });
});

describe('Translation runs (DeepL protocol)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start((origin) => ({
      TRANSLATION_PROVIDER: 'deepl',
      TRANSLATION_API_URL: origin,
      TRANSLATION_API_KEY: 'deepl-key',
    }));
  });
  afterAll(() => h.close());

  it('sends texts as text[] with the key, upper-case languages; keeps code and URLs', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'pt-br' });
    const done = await h.run(created.id);
    expect(done.lastRunError).toBeUndefined();
    const request = h.server.requests[0];
    expect(request.path).toBe('/v2/translate');
    expect(request.headers.authorization).toBe('DeepL-Auth-Key deepl-key');
    expect(request.body).toMatchObject({ source_lang: 'EN', target_lang: 'PT-BR' });
    expect(Array.isArray(request.body.text)).toBe(true);
    const start = await h.page(done.result!.space, h.pages.start);
    expect(start.title).toBe('[pt-br]Getting [pt-br]started');
    expect(leafTexts(start.document?.nodes)).toContain('npm install');
    expect(JSON.stringify(start.document)).toContain('https://example.com/guide');
  });
});

describe('Translation runs (AI protocol)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start((origin) => ({
      TRANSLATION_PROVIDER: 'ai',
      AI_API_URL: `${origin}/v1`,
      AI_API_KEY: 'ai-key',
      AI_MODEL: 'fake-model',
    }));
  });
  afterAll(() => h.close());

  it('asks for JSON with both instructions in the prompt, and uses the answer', async () => {
    await h.org.owner.client
      .put(`/v1/orgs/${h.org.id}/agent-instructions`, {
        instructions: {
          object: 'document',
          data: {},
          nodes: [{ object: 'block', type: 'paragraph', nodes: [text('Org says: be concise.')] }],
        },
      })
      .expect(200);
    const created = await h.t.factories.translation(h.org, {
      space: h.source,
      language: 'ja',
      instructions: {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', nodes: [text('Keep "Bindery" as is.')] }],
      },
    });
    const done = await h.run(created.id);
    expect(done.lastRunError).toBeUndefined();
    const request = h.server.requests[0];
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer ai-key');
    expect(request.body).toMatchObject({
      model: 'fake-model',
      response_format: { type: 'json_object' },
    });
    const [system, user] = request.body.messages as { role: string; content: string }[];
    expect(system.content).toContain('Japanese (ja)');
    expect(system.content).toContain('Org says: be concise.');
    expect(system.content).toContain('Keep "Bindery" as is.');
    expect(JSON.parse(user.content)).toMatchObject({ '0': expect.any(String) });
    const start = await h.page(done.result!.space, h.pages.start);
    expect(start.title).toBe(fakeTranslation('Getting started', 'ja'));
    expect(leafTexts(start.document?.nodes)).toContain('const greeting = "hello world";');
  });
});
