import { readFileSync } from 'node:fs';
import {
  coverageProblems,
  type CoverageInputs,
  gitbookOperations,
  readCoverageInputs,
  README_FILE,
  readmeSection,
  renderCoverage,
  withSection,
} from './api-coverage';

/**
 * The README's coverage of GitBook's API, checked against GitBook's spec, the committed API
 * document and openapi/gitbook-coverage.yaml, so that it cannot drift from what Bindery serves.
 */

describe("the README's coverage of GitBook's API", () => {
  const inputs = readCoverageInputs();

  it('lists every operation of the spec that the API document does not have, and only those', () => {
    expect(coverageProblems(inputs)).toEqual([]);
  });

  it('is in the README as `npm run coverage:generate` writes it', async () => {
    const readme = readFileSync(README_FILE, 'utf8');
    const expected = await renderCoverage(inputs);
    // Compared line by line, so that a failure shows the lines that differ.
    expect(readmeSection(readme).split('\n')).toEqual(expected.split('\n'));
  }, 30_000);

  it('counts every operation of the spec once, with one row each', async () => {
    const total = gitbookOperations(inputs.gitbook).length;
    const section = await renderCoverage(inputs);
    // The rows of the spec's operations, before those of earlier versions.
    const [current] = section.split('<summary>Implemented, from earlier versions');
    const rows = current.split('\n').filter((line) => /^\| `\w+` +\| `[A-Z]+ \//.test(line));
    expect(rows).toHaveLength(total);
    const count = (status: string) =>
      rows.filter((row) => new RegExp(`\\| ${status} +\\|`).test(row)).length;
    expect(section).toContain(
      `Of the **${total}** operations of GitBook's API ${inputs.gitbookVersion}, Bindery ` +
        `implements **${count('implemented')}**; **${count('not yet')}** are not yet ` +
        `implemented and **${count('not applicable')}** are not applicable.`,
    );
    expect(count('implemented') + count('not yet') + count('not applicable')).toBe(total);
  }, 30_000);
});

describe('the coverage checks', () => {
  const operation = (operationId: string, tags = ['spaces']) => ({ operationId, tags });
  const inputs = (listed: Record<string, unknown>): CoverageInputs => ({
    gitbookVersion: '0.202.0',
    gitbook: {
      tags: [{ name: 'spaces' }, { name: 'sites' }],
      paths: {
        '/spaces/{spaceId}': {
          get: operation('getSpaceById'),
          delete: operation('deleteSpaceById'),
        },
        '/orgs/{organizationId}/sites/{siteId}/ads': {
          post: operation('updateSiteAdsById', ['sites', 'critical']),
        },
      },
    },
    bindery: {
      paths: {
        '/v1/spaces/{spaceId}': { get: operation('getSpaceById') },
        '/v1/webhooks': { get: { operationId: 'listWebhooks', 'x-bindery-only': true } },
      },
    },
    listed,
  });
  const ads = { status: 'not applicable', reason: "GitBook's ads program." };
  const deletion = { status: 'not yet', reason: 'Issue 99.' };

  it('passes when each operation is implemented or listed', async () => {
    const complete = inputs({ updateSiteAdsById: ads, deleteSpaceById: deletion });
    expect(coverageProblems(complete)).toEqual([]);
    const section = await renderCoverage(complete);
    expect(section).toContain(
      "Of the **3** operations of GitBook's API 0.202.0, Bindery implements **1**; **1** are not yet implemented and **1** are not applicable.",
    );
    expect(section).toMatch(
      /\| `getSpaceById` +\| `GET \/spaces\/\{spaceId\}` +\| implemented +\| +\|/,
    );
    expect(section).toMatch(
      /\| `deleteSpaceById` +\| `DELETE \/spaces\/\{spaceId\}` +\| not yet +\| Issue 99\. +\|/,
    );
    expect(section).toContain(
      '<summary><code>sites</code>: 0 of 1 implemented, 1 not applicable</summary>',
    );
  });

  it('fails when an operation is neither implemented nor listed', async () => {
    const problems = coverageProblems(inputs({ updateSiteAdsById: ads }));
    expect(problems).toEqual([
      expect.stringMatching(/^deleteSpaceById \(DELETE \/spaces\/\{spaceId\}\) is neither in/),
    ]);
    await expect(renderCoverage(inputs({ updateSiteAdsById: ads }))).rejects.toThrow(
      /deleteSpaceById/,
    );
  });

  it('fails when a listed operation is implemented, or is not in the spec', () => {
    const problems = coverageProblems(
      inputs({
        updateSiteAdsById: ads,
        deleteSpaceById: deletion,
        getSpaceById: deletion,
        getSpaceByName: deletion,
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/lists getSpaceById, which Bindery implements/),
      expect.stringMatching(
        /lists getSpaceByName, which is not an operation of GitBook's API 0\.202\.0/,
      ),
    ]);
  });

  it('fails when an entry has no reason or another status', () => {
    const problems = coverageProblems(
      inputs({
        updateSiteAdsById: { status: 'not applicable', reason: ' ' },
        deleteSpaceById: { status: 'later', reason: 'Issue 99.' },
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/updateSiteAdsById must be \{status, reason\}/),
      expect.stringMatching(/deleteSpaceById must be \{status, reason\}/),
    ]);
  });

  it('replaces only the text between the markers', () => {
    const readme = 'intro\n\n<!-- coverage:start -->\n\nold\n\n<!-- coverage:end -->\n\nrest\n';
    const updated = withSection(readme, 'new\n');
    expect(updated).toBe(
      'intro\n\n<!-- coverage:start -->\n\nnew\n\n<!-- coverage:end -->\n\nrest\n',
    );
    expect(readmeSection(updated)).toBe('new\n');
    expect(() => readmeSection('no markers')).toThrow(/coverage:start/);
  });
});
