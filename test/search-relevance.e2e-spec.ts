import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from './helpers/app';
import type { PageOf } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import { insertPage } from './helpers/content';

/**
 * The search relevance set: a small documentation corpus per language
 * (test/fixtures/search-relevance/<language>.json: pages in markdown, and queries each with the
 * title of the page that should come first), loaded through the API into one space per
 * language with that space's `language`, and every query run through `searchSpaceContent`.
 *
 * Per language it prints precision@1 (the share of queries whose expected page is the first
 * hit) and precision@5 (the share whose expected page is among the first five: with one
 * relevant page per query, the usual "relevant hits / 5" could never pass 0.2), and asserts
 * precision@1 ≥ 0.9 in every language.
 */

interface RelevanceQuery {
  query: string;
  /** The title of the page expected first. */
  expect: string;
  /** What the query exercises: word, stem, prefix, accent, typo, phrase, word-in-sentence. */
  kind: string;
}
interface RelevanceSet {
  language: string;
  pages: { title: string; markdown: string }[];
  queries: RelevanceQuery[];
}

const FIXTURES = join(__dirname, 'fixtures', 'search-relevance');
const SETS: RelevanceSet[] = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as RelevanceSet);

const MIN_PRECISION_AT_1 = 0.9;

describe('search relevance (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finds the expected page first for ≥ 90% of the queries of every language', async () => {
    const org = await t.factories.organization();
    const results: { language: string; at1: number; at5: number; misses: string[] }[] = [];
    for (const set of SETS) {
      const space = await t.factories.space(org, {
        title: `Relevance ${set.language}`,
        language: set.language,
        empty: true,
      });
      await t.factories.changeRequest(org, space.id, {
        changes: set.pages.map((page) => insertPage(page.title, page.markdown)),
        merge: true,
      });
      let at1 = 0;
      let at5 = 0;
      const misses: string[] = [];
      for (const { query, expect: expected, kind } of set.queries) {
        const res = await org.owner.client
          .get(`/v1/spaces/${space.id}/search?query=${encodeURIComponent(query)}&limit=5`)
          .expect(200);
        expectConforms(res, 'searchSpaceContent');
        const titles = (res.body as PageOf<{ title: string }>).items.map((hit) => hit.title);
        if (titles[0] === expected) at1 += 1;
        if (titles.slice(0, 5).includes(expected)) at5 += 1;
        else misses.push(`${kind} "${query}" → [${titles.join(', ')}]`);
        if (titles[0] !== expected && titles.includes(expected)) {
          misses.push(`${kind} "${query}" ranked below [${titles[0]}]`);
        }
      }
      const n = set.queries.length;
      results.push({ language: set.language, at1: at1 / n, at5: at5 / n, misses });
    }
    console.log(
      [
        'language  queries  precision@1  precision@5',
        ...results.map(
          (r, i) =>
            `${r.language.padEnd(8)}  ${String(SETS[i].queries.length).padStart(7)}  ` +
            `${r.at1.toFixed(2).padStart(11)}  ${r.at5.toFixed(2).padStart(11)}` +
            (r.misses.length ? `\n    ${r.misses.join('\n    ')}` : ''),
        ),
      ].join('\n'),
    );
    expect(SETS.reduce((n, set) => n + set.queries.length, 0)).toBeGreaterThanOrEqual(60);
    for (const set of SETS) expect(set.queries.length).toBeGreaterThanOrEqual(7);
    expect(
      results.filter((r) => r.at1 < MIN_PRECISION_AT_1).map((r) => `${r.language} ${r.at1}`),
    ).toEqual([]);
  }, 120_000);
});
