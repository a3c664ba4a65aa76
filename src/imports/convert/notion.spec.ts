import { strToU8, zipSync } from 'fflate';
import { convertFiles, type ConvertContext } from './import-tree';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const ID = (n: number) => n.toString(16).padStart(32, 'a');

function zip(files: Record<string, string | Buffer>): Buffer {
  return Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(files).map(([path, data]) => [
          path,
          typeof data === 'string' ? strToU8(data) : new Uint8Array(data),
        ]),
      ),
    ),
  );
}

describe('Notion export', () => {
  it('reads pages, subpages in link order, databases as tables, callouts, links and images', async () => {
    const warnings: string[] = [];
    const context: ConvertContext = {
      signal: new AbortController().signal,
      progress: () => undefined,
      warn: (message) => void warnings.push(message),
    };
    const wiki = `Team Wiki ${ID(1)}`;
    const onboarding = `Onboarding ${ID(2)}`;
    const tasks = `Tasks ${ID(3)}`;
    const enc = (path: string) => encodeURI(path);
    const inner = zip({
      [`${wiki}.md`]: `# Team Wiki\n\n<aside>\n💡 Ask in #help.\n</aside>\n\n[Tasks](${enc(`${wiki}/${tasks}.csv`)})\n\n[Onboarding](${enc(`${wiki}/${onboarding}.md`)})\n`,
      [`${wiki}/${onboarding}.md`]: `# Onboarding\n\n![Untitled](${enc(`${onboarding}/Untitled.png`)})\n\nSee [the wiki](https://www.notion.so/Team-Wiki-${ID(1)}) and [tasks](${enc(`${tasks}.csv`)}).\n`,
      [`${wiki}/${onboarding}/Untitled.png`]: PNG,
      [`${wiki}/${tasks}.csv`]: 'Name,Status\nShip it,Done\n',
      [`${wiki}/${tasks}_all.csv`]:
        '\uFEFFName,Status,Notes\nShip it,Done,"a|b"\nPlan,To do,"two\nlines"\n',
      [`${wiki}/${tasks}/Ship it ${ID(4)}.md`]: '# Ship it\n\nStatus: Done\n\nShip the thing.\n',
    });
    // Notion wraps large exports: a zip holding the export's zip.
    const archive = zip({ 'Export-1234-Part-1.zip': inner });
    const tree = await convertFiles([{ name: 'Export-1234.zip', bytes: archive }], context);
    const text = (path: string) => tree.files.get(path)?.toString('utf8');
    expect(text('SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Team Wiki](team-wiki/README.md)\n  * [Tasks](team-wiki/tasks/README.md)\n    * [Ship it](team-wiki/tasks/ship-it.md)\n' +
        '  * [Onboarding](team-wiki/onboarding.md)\n',
    );
    expect(text('team-wiki/README.md')).toBe(
      '# Team Wiki\n\n{% hint style="info" %}\n💡 Ask in #help.\n{% endhint %}\n\n[Tasks](tasks/)\n\n[Onboarding](onboarding.md)\n',
    );
    expect(text('team-wiki/onboarding.md')).toBe(
      '# Onboarding\n\n![Untitled](../.gitbook/assets/Untitled.png)\n\nSee [the wiki](./) and [tasks](tasks/).\n',
    );
    expect(text('team-wiki/tasks/README.md')).toBe(
      '# Tasks\n\n| Name | Status | Notes |\n| --- | --- | --- |\n| [Ship it](ship-it.md) | Done | a\\|b |\n| Plan | To do | two<br>lines |\n',
    );
    expect(text('team-wiki/tasks/ship-it.md')).toBe(
      '# Ship it\n\nStatus: Done\n\nShip the thing.\n',
    );
    expect(tree.files.get('.gitbook/assets/Untitled.png')).toEqual(PNG);
    expect(tree.sources.get('team-wiki/tasks/README.md')).toBe(`${wiki}/${tasks}_all.csv`);
    expect(warnings).toEqual([]);
  });

  it('reads an HTML export the same way, callouts as hints', async () => {
    const context: ConvertContext = {
      signal: new AbortController().signal,
      progress: () => undefined,
      warn: () => undefined,
    };
    const home = `Home ${ID(7)}`;
    const archive = zip({
      [`${home}.html`]:
        '<html><head><title>Home</title></head><body><article class="page sans"><header><h1 class="page-title">Home</h1></header>' +
        '<div class="page-body"><figure class="block-color-gray_background callout"><div><span class="icon">💡</span></div><div>Tip here.</div></figure>' +
        `<figure class="link-to-page"><a href="${encodeURI(`${home}/Child ${ID(8)}.html`)}">Child</a></figure></div></article></body></html>`,
      [`${home}/Child ${ID(8)}.html`]: `<html><body><article class="page"><header><h1 class="page-title">Child</h1></header><div class="page-body"><p>Back <a href="../${encodeURI(home)}.html">home</a>.</p></div></article></body></html>`,
    });
    const tree = await convertFiles([{ name: 'notion.zip', bytes: archive }], context);
    const text = (path: string) => tree.files.get(path)?.toString('utf8');
    expect(text('SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Home](home/README.md)\n  * [Child](home/child.md)\n',
    );
    expect(text('home/README.md')).toBe(
      '# Home\n\n{% hint style="info" %}\n💡\n\nTip here.\n{% endhint %}\n\n[Child](child.md)\n',
    );
    expect(text('home/child.md')).toBe('# Child\n\nBack [home](./).\n');
  });
});
