import type { EntityManager } from 'typeorm';
import { ContentWriter, type ContentChange } from '../src/content-engine/writes/content-writer';
import { newId } from '../src/platform/ids/ids';
import { createTestApp, TestApp } from './helpers/app';
import type { TranslationBody } from './helpers/bodies';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import {
  startFakeTranslationServer,
  type FakeTranslationServer,
} from './helpers/fake-translation-servers';

/**
 * Translation by whole segments against fake providers that reorder words and keep tags: tables,
 * images, tabs and inline formatting translated with every mark and link in place; a
 * translator's edit in the result surviving later runs; placeholders a provider breaks; no
 * revision when nothing changed; and the translation glossary (its operations, and its use by
 * DeepL, LibreTranslate and a chat model).
 */

interface Node {
  object: string;
  type?: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: Node[];
  leaves?: { text: string; marks: { type: string }[] }[];
  fragments?: { fragment: string; nodes: Node[] }[];
}
interface PageBody {
  id: string;
  title: string;
  document?: { nodes: Node[] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const leaf = (text: string, marks: string[] = []) => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
});
const text = (...leaves: ReturnType<typeof leaf>[]) => ({ object: 'text', leaves });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const link = (url: string, label: string) => ({
  object: 'inline',
  type: 'link',
  data: { ref: { kind: 'url', url } },
  nodes: [text(leaf(label))],
});

/** A page with inline formatting, a table, an image and tabs. */
const GUIDE = {
  object: 'document',
  data: {},
  nodes: [
    paragraph(
      text(leaf('Install the '), leaf('CLI', ['bold']), leaf(' with '), leaf('npm i', ['code'])),
      text(leaf(' and ')),
      link('https://example.com/docs', 'visit docs'),
    ),
    {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
        definition: {
          c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' },
          c2: { id: 'c2', title: 'Notes', type: 'text', textAlignment: 'left' },
        },
        records: { r1: { orderIndex: 'a0', values: { c1: 'cell1', c2: 'cell2' } } },
      },
      fragments: [
        { object: 'fragment', fragment: 'cell1', nodes: [paragraph(text(leaf('Fast mode')))] },
        {
          object: 'fragment',
          fragment: 'cell2',
          nodes: [paragraph(text(leaf('Very '), leaf('fast', ['italic'])))],
        },
      ],
    },
    {
      object: 'block',
      type: 'images',
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'https://example.com/cat.png' }, alt: 'Sleeping cat' },
        },
      ],
    },
    {
      object: 'block',
      type: 'tabs',
      nodes: [
        {
          object: 'block',
          type: 'tabs-item',
          data: { title: 'Windows setup' },
          nodes: [paragraph(text(leaf('Open a terminal')))],
        },
      ],
    },
    paragraph(text(leaf('Keep this sentence'))),
    paragraph(text(leaf('Change this sentence'))),
  ],
};

class Harness {
  org!: TestOrganization;
  source!: string;
  page = newId();

  constructor(
    readonly t: TestApp,
    readonly server: FakeTranslationServer,
  ) {}

  static async start(settings: (origin: string) => Record<string, string>): Promise<Harness> {
    const server = await startFakeTranslationServer();
    server.reorder(true);
    const h = new Harness(await createTestApp(settings(server.origin)), server);
    h.org = await h.t.factories.organization();
    h.source = (await h.t.factories.space(h.org, { title: 'Guide', empty: true })).id;
    await h.write(h.source, [
      { operation: 'insert_page', id: h.page, meta: { title: 'Guide' }, document: GUIDE },
    ] as ContentChange[]);
    return h;
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.server.close();
  }

  async write(space: string, changes: ContentChange[]): Promise<void> {
    this.t.clock.advance(1000);
    const writer = this.t.bindery.app.get(ContentWriter);
    await this.t.dataSource.transaction(async (manager: EntityManager) => {
      const [row]: { revision_id: string }[] = await manager.query(
        'SELECT revision_id FROM spaces WHERE id = $1',
        [space],
      );
      await writer.commitOnPrimary(manager, {
        spaceId: space,
        expectedRevisionId: row.revision_id,
        authorId: null,
        type: 'edits',
        changes,
      });
    });
  }

  path(id = ''): string {
    return `/v1/orgs/${this.org.id}/translations${id ? `/${id}` : ''}`;
  }

  async run(id: string): Promise<TranslationBody> {
    await this.org.owner.client.post(`${this.path(id)}/run`).expect(204);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await this.org.owner.client.get(this.path(id)).expect(200);
      expectConforms(res, 'getTranslation');
      if (res.body.status === 'completed') return res.body as TranslationBody;
      if (Date.now() > deadline) throw new Error(`Translation ${id} is still ${res.body.status}`);
      await sleep(100);
    }
  }

  async document(space: string): Promise<Node[]> {
    const res = await this.org.owner.client
      .get(`/v1/spaces/${space}/content/page/${this.page}?format=document`)
      .expect(200);
    return (res.body as PageBody).document!.nodes;
  }

  async revision(space: string): Promise<string> {
    const res = await this.org.owner.client.get(`/v1/spaces/${space}/content`).expect(200);
    return res.body.id as string;
  }
}

/** The text of a block's leaves with their marks, and its links, as a readable string. */
function inline(nodes: Node[] | undefined): string {
  return (nodes ?? [])
    .map((node) => {
      if (node.object === 'text') {
        return (node.leaves ?? [])
          .map((l) =>
            l.marks.length ? `{${l.marks.map((m) => m.type).join('+')}:${l.text}}` : l.text,
          )
          .join('');
      }
      if (node.type === 'link') {
        return `[${inline(node.nodes)}](${(node.data?.ref as { url: string }).url})`;
      }
      return `<${node.type}>`;
    })
    .join('');
}

describe('Translation by segments (DeepL protocol, words reordered)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start((origin) => ({
      TRANSLATION_PROVIDER: 'deepl',
      TRANSLATION_API_URL: origin,
      TRANSLATION_API_KEY: 'deepl-key',
    }));
  });
  afterAll(() => h.close());

  it('translates tables, images, tabs and formatted text whole, every mark and link in place', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'fr' });
    h.server.reset();
    const done = await h.run(created.id);
    expect(done.lastRunError).toBeUndefined();

    // One string per block, with tags; XML tag handling asked for.
    expect(h.server.requests[0].body).toMatchObject({ tag_handling: 'xml' });
    expect(h.server.texts).toContain(
      'Install the <g id="1">CLI</g> with <x id="2"/> and <g id="3">visit docs</g>',
    );

    const nodes = await h.document(done.result!.space);
    // Words reversed across the bold and the link; the code and the URL unchanged.
    expect(inline(nodes[0].nodes)).toBe(
      '[[fr]visit [fr]docs](https://example.com/docs) [fr]and {code:npm i} [fr]with {bold:[fr]CLI} [fr]the [fr]Install',
    );
    const table = nodes[1];
    const definition = table.data!.definition as Record<string, { title: string }>;
    expect([definition.c1.title, definition.c2.title]).toEqual(['[fr]Name', '[fr]Notes']);
    const cells = Object.fromEntries(
      (table.fragments ?? []).map((f) => [f.fragment, inline(f.nodes[0].nodes)]),
    );
    expect(cells).toEqual({ cell1: '[fr]mode [fr]Fast', cell2: '{italic:[fr]fast} [fr]Very' });
    expect(nodes[2].nodes![0].data).toMatchObject({
      alt: '[fr]cat [fr]Sleeping',
      ref: { kind: 'url', url: 'https://example.com/cat.png' },
    });
    const tab = nodes[3].nodes![0];
    expect(tab.data!.title).toBe('[fr]setup [fr]Windows');
    expect(inline(tab.nodes![0].nodes)).toBe('[fr]terminal [fr]a [fr]Open');
    // Title, paragraph, 2 cells, 2 column titles, alt text, tab title and text, 2 paragraphs.
    expect(done.stats).toMatchObject({ latestSegments: 11, latestCachedSegments: 0 });
  });

  it("keeps a translator's fix through two further runs; retranslates only changed segments", async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'de' });
    const first = await h.run(created.id);
    const result = first.result!.space;

    // A translator fixes one paragraph in the result space.
    const fixed = structuredClone(await h.document(result));
    fixed[4].nodes = [text(leaf('Diesen Satz behalten', ['bold']))] as Node[];
    await h.write(result, [
      {
        operation: 'set_document',
        page: h.page,
        document: { object: 'document', data: {}, nodes: fixed },
      },
    ] as ContentChange[]);

    // Unchanged source: the fix stays, nothing is sent, no revision is made.
    h.server.reset();
    const edited = await h.revision(result);
    const second = await h.run(created.id);
    expect(h.server.texts).toEqual([]);
    expect(await h.revision(result)).toBe(edited);
    expect(second.result!.revision).toBe(edited);
    expect(inline((await h.document(result))[4].nodes)).toBe('{bold:Diesen Satz behalten}');

    // The source changes one other paragraph: only that one is sent; the fix stays.
    const source = structuredClone(GUIDE);
    source.nodes[5] = paragraph(text(leaf('Changed sentence here')));
    await h.write(h.source, [
      { operation: 'set_document', page: h.page, document: source },
    ] as ContentChange[]);
    h.server.reset();
    const third = await h.run(created.id);
    expect(h.server.texts).toEqual(['Changed sentence here']);
    expect(third.stats).toMatchObject({
      latestPages: 1,
      latestSegments: 11,
      latestCachedSegments: 10,
      latestCharacters: 'Changed sentence here'.length,
      latestWords: 3,
    });
    expect(third.result!.revision).not.toBe(edited);
    const after = await h.document(result);
    expect(inline(after[4].nodes)).toBe('{bold:Diesen Satz behalten}');
    expect(inline(after[5].nodes)).toBe('[de]here [de]sentence [de]Changed');
    expect(inline(after[0].nodes)).toContain('{bold:[de]CLI}');

    // And once more with nothing changed: still there, no revision.
    const fourth = await h.run(created.id);
    expect(fourth.result!.revision).toBe(third.result!.revision);
    expect(inline((await h.document(result))[4].nodes)).toBe('{bold:Diesen Satz behalten}');
  });

  it('asks once more for a segment whose placeholders come back broken, then leaves it untranslated', async () => {
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'es' });
    h.server.dropPlaceholders('Install', 1);
    h.server.reset();
    const retried = await h.run(created.id);
    expect(retried.lastRunError).toBeUndefined();
    expect(h.server.texts.filter((t) => t.startsWith('Install'))).toHaveLength(2);
    expect(inline((await h.document(retried.result!.space))[0].nodes)).toContain('{bold:[es]CLI}');

    const broken = await h.t.factories.translation(h.org, { space: h.source, language: 'it' });
    h.server.dropPlaceholders('Install', 2);
    const done = await h.run(broken.id);
    expect(done.lastRunError).toEqual({
      message: expect.stringContaining('1 segment'),
      failedAt: expect.any(String),
      details: [
        {
          page: h.page,
          segment: 'document.nodes.0',
          reason: expect.stringContaining('placeholder'),
        },
      ],
    });
    const nodes = await h.document(done.result!.space);
    // The source, intact; the rest translated.
    expect(inline(nodes[0].nodes)).toBe(
      'Install the {bold:CLI} with {code:npm i} and [visit docs](https://example.com/docs)',
    );
    expect(inline(nodes[4].nodes)).toBe('[it]sentence [it]this [it]Keep');
    // The next run asks for it again, and clears the error.
    const again = await h.run(broken.id);
    expect(again.lastRunError).toBeUndefined();
    expect(inline((await h.document(done.result!.space))[0].nodes)).toContain('{bold:[it]CLI}');
  });

  it('applies the glossary through a DeepL glossary made for the run and deleted after it', async () => {
    await h.org.owner.client
      .put(`/v1/orgs/${h.org.id}/translations-glossary`, {
        operations: [{ type: 'insert', translations: { en: 'terminal', nl: 'opdrachtprompt' } }],
      })
      .expect(204);
    const created = await h.t.factories.translation(h.org, { space: h.source, language: 'nl' });
    h.server.reset();
    const done = await h.run(created.id);
    const create = h.server.requests.find((r) => r.path === '/v2/glossaries');
    expect(create?.body).toMatchObject({
      source_lang: 'EN',
      target_lang: 'NL',
      entries: 'terminal\topdrachtprompt',
      entries_format: 'tsv',
    });
    expect(h.server.requests.find((r) => r.path === '/v2/translate')?.body.glossary_id).toEqual(
      expect.any(String),
    );
    expect(h.server.glossaries.size).toBe(0);
    const tab = (await h.document(done.result!.space))[3].nodes![0];
    expect(inline(tab.nodes![0].nodes)).toBe('opdrachtprompt [nl]a [nl]Open');
  });
});

describe('Translation by segments (LibreTranslate and AI protocols)', () => {
  it('LibreTranslate: HTML placeholders; glossary terms kept out and put back', async () => {
    const h = await Harness.start((origin) => ({
      TRANSLATION_PROVIDER: 'libretranslate',
      TRANSLATION_API_URL: origin,
    }));
    try {
      await h.org.owner.client
        .put(`/v1/orgs/${h.org.id}/translations-glossary`, {
          operations: [{ type: 'insert', translations: { en: 'CLI', fr: 'interface' } }],
        })
        .expect(204);
      const created = await h.t.factories.translation(h.org, { space: h.source, language: 'fr' });
      const done = await h.run(created.id);
      expect(done.lastRunError).toBeUndefined();
      expect(h.server.requests[0].body.format).toBe('html');
      expect(h.server.texts).toContain(
        'Install the <g id="1"><x id="4"></x></g> with <x id="2"></x> and <g id="3">visit docs</g>',
      );
      expect(inline((await h.document(done.result!.space))[0].nodes)).toBe(
        '[[fr]visit [fr]docs](https://example.com/docs) [fr]and {code:npm i} [fr]with {bold:interface} [fr]the [fr]Install',
      );
    } finally {
      await h.close();
    }
  });

  it('AI: numbered tags in JSON, the glossary in the prompt', async () => {
    const h = await Harness.start((origin) => ({
      TRANSLATION_PROVIDER: 'ai',
      AI_API_URL: `${origin}/v1`,
      AI_MODEL: 'fake-model',
    }));
    try {
      await h.org.owner.client
        .put(`/v1/orgs/${h.org.id}/translations-glossary`, {
          operations: [{ type: 'insert', translations: { en: 'terminal', ja: 'ターミナル' } }],
        })
        .expect(204);
      const created = await h.t.factories.translation(h.org, { space: h.source, language: 'ja' });
      const done = await h.run(created.id);
      expect(done.lastRunError).toBeUndefined();
      const [system, user] = h.server.requests[0].body.messages as { content: string }[];
      expect(system.content).toContain('"terminal" → "ターミナル"');
      expect(Object.values(JSON.parse(user.content))).toContain(
        'Install the <g1>CLI</g1> with <x2/> and <g3>visit docs</g3>',
      );
      const nodes = await h.document(done.result!.space);
      expect(inline(nodes[0].nodes)).toContain('{bold:[ja]CLI}');
      expect(inline(nodes[3].nodes![0].nodes![0].nodes)).toBe('ターミナル [ja]a [ja]Open');
    } finally {
      await h.close();
    }
  });
});

describe('Translation glossary operations', () => {
  let t: TestApp;
  let org: TestOrganization;
  let other: TestOrganization;
  const path = (id = '') => `/v1/orgs/${org.id}/translations-glossary${id ? `/${id}` : ''}`;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    other = await t.factories.organization();
  });
  afterAll(() => t.close());

  it('inserts, lists (oldest first or by a language), gets, updates and deletes entries', async () => {
    const put = await org.owner.client
      .put(path(), {
        operations: [
          { type: 'insert', translations: { en: 'space', fr: 'espace' } },
          { type: 'insert', translations: { en: 'Account', fr: 'compte' } },
          { type: 'insert', translations: { de: 'Bereich' } },
        ],
      })
      .expect(204);
    expectConforms(put, 'updateGlossaryEntries', GITBOOK_0202);
    const list = await org.owner.client.get(path()).expect(200);
    expectConforms(list, 'listGlossaryEntries', GITBOOK_0202);
    expect(list.body.count).toBe(3);
    const items = list.body.items as { id: string; translations: Record<string, string> }[];
    const find = (term: string) => items.find((e) => Object.values(e.translations).includes(term))!;
    const [space, account, bereich] = [find('space'), find('Account'), find('Bereich')];
    expect(space.translations).toEqual({ en: 'space', fr: 'espace' });

    const byEnglish = await org.owner.client.get(`${path()}?orderBy=en&limit=2`).expect(200);
    expectConforms(byEnglish, 'listGlossaryEntries', GITBOOK_0202);
    expect(byEnglish.body.items.map((e: { id: string }) => e.id)).toEqual([account.id, space.id]);
    const rest = await org.owner.client
      .get(`${path()}?orderBy=en&limit=2&page=${byEnglish.body.next.page}`)
      .expect(200);
    expect(rest.body.items.map((e: { id: string }) => e.id)).toEqual([bereich.id]);

    const one = await (await t.factories.asMember(org, 'read')).get(path(space.id)).expect(200);
    expectConforms(one, 'getGlossaryEntry', GITBOOK_0202);
    expect(one.body).toMatchObject({
      object: 'glossary-entry',
      id: space.id,
      urls: { location: expect.stringContaining(`/translations-glossary/${space.id}`) },
    });

    await org.owner.client
      .put(path(), {
        operations: [
          { type: 'update', id: space.id, translations: { en: 'space', de: 'Raum' } },
          { type: 'delete', id: account.id },
          { type: 'delete', id: 'gone-already' },
        ],
      })
      .expect(204);
    const updated = await org.owner.client.get(path(space.id)).expect(200);
    expect(updated.body.translations).toEqual({ en: 'space', de: 'Raum' });
    await org.owner.client.get(path(account.id)).expect(404);
  });

  it('400 for bad operations, all or none; 404 unknown or other organization; 403 below create', async () => {
    const before = (await org.owner.client.get(path()).expect(200)).body.count as number;
    const bad = [
      {},
      { operations: 'x' },
      { operations: [{ type: 'upsert', translations: { en: 'a' } }] },
      { operations: [{ type: 'insert', translations: { xx: 'a' } }] },
      { operations: [{ type: 'insert', translations: { en: 'two\nlines' } }] },
      { operations: [{ type: 'insert', translations: { en: 'a'.repeat(256) } }] },
      { operations: [{ type: 'insert', translations: {} }] },
      {
        operations: [
          { type: 'insert', translations: { en: 'kept?' } },
          { type: 'update', id: 'nope', translations: { en: 'a' } },
        ],
      },
    ];
    for (const body of bad) {
      const res = await org.owner.client.put(path(), body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message: expect.any(String) });
    }
    const last = await org.owner.client.put(path(), bad[7]).expect(400);
    expect(last.body.error.message).toContain('operations[1].id');
    expect((await org.owner.client.get(path()).expect(200)).body.count).toBe(before);
    await org.owner.client.get(`${path()}?orderBy=xx`).expect(400);

    await org.owner.client.get(path('unknown')).expect(404);
    const [entry] = (await org.owner.client.get(path()).expect(200)).body.items as { id: string }[];
    await other.owner.client
      .get(`/v1/orgs/${org.id}/translations-glossary/${entry.id}`)
      .expect(404);
    await other.owner.client
      .get(`/v1/orgs/${other.id}/translations-glossary/${entry.id}`)
      .expect(404);
    await other.owner.client.get(`/v1/orgs/${org.id}/translations-glossary`).expect(404);
    const body = { operations: [{ type: 'delete', id: entry.id }] };
    await other.owner.client.put(`/v1/orgs/${org.id}/translations-glossary`, body).expect(404);
    for (const role of ['read', 'edit', 'review'] as const) {
      const res = await (await t.factories.asMember(org, role)).put(path(), body).expect(403);
      expect(res.body.error.code).toBe(403);
    }
    await org.owner.client.get(path(entry.id)).expect(200);
  });
});
