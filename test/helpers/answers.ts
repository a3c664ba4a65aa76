import type { TestApp } from './app';
import type { SiteBody, SiteSpaceBody } from './bodies';
import type { Client } from './client';
import { insertPage } from './content';
import type { TestOrganization } from './factories';

/**
 * What the ask operations answer (GitBook's `SearchAIAnswerStream` events, `SearchAIAnswer`),
 * as tests read them, and the error check they share.
 */

/** GitBook's `SearchAIAnswerSourcePage`. */
export interface AnswerSource {
  type: 'page';
  page: string;
  revision: string;
  space: string;
  sections: string[];
}

/** One event of a streamed answer. */
export interface AnswerEvent {
  type: 'answer';
  answer: {
    answer?: { markdown?: string; document?: { object: string; nodes: unknown[] } };
    followupQuestions: string[];
    sources: AnswerSource[];
  };
}

/** The answer is the error `code`, `{error:{code,message}}`, its message containing `text`. */
export function expectError(res: { status: number; body: unknown }, code: number, text = '') {
  expect({ status: res.status, body: res.body }).toEqual({
    status: code,
    body: { error: { code, message: expect.stringContaining(text) } },
  });
}

/** SITES_URL of the apps these tests start: a site's URL is `https://docs.localhost/<org>/<site>`. */
export const ANSWER_SITES_URL = 'http://docs.localhost/{organization}';
/** The condition of the page only visitors with the unsigned claim `beta` see. */
export const BETA = 'visitor.claims.unsigned.beta === true';
/** In the hidden page alone. */
export const SECRET = 'quokkaveil';

/** answerSite's site, its pages' ids, and a site token of a visitor without and with `beta`. */
export interface AnswerSite {
  org: TestOrganization;
  site: SiteBody;
  guides: SiteSpaceBody;
  /** The published site's URL, and its API path (`/v1/orgs/{o}/sites/{s}`). */
  url: string;
  base: string;
  revisionId: string;
  installId: string;
  webhooksId: string;
  hiddenId: string;
  plain: Client;
  tester: Client;
}

/**
 * A published site with AI on (`aiMode`): its site space `guides` holds "Installation" (the
 * zephyrine engine), "Webhooks", and "Quokkaveil plan", about the zephyrine engine too, which
 * only visitors with the unsigned claim `beta` see. `install` and `webhooks` change the first two's text.
 */
export async function answerSite(
  t: TestApp,
  options: { aiMode?: string; install?: string; webhooks?: string } = {},
): Promise<AnswerSite> {
  const {
    aiMode = 'search',
    install = 'Install the zephyrine engine with `npm install zephyrine`, then run it.',
    webhooks = 'Webhooks deliver events to your endpoint.',
  } = options;
  const org = await t.factories.organization();
  const site = await t.factories.site(org, { title: 'Engine docs' });
  const guides = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guides' });
  await t.factories.changeRequest(org, guides.space.id, {
    changes: [
      insertPage('Installation', install),
      insertPage('Webhooks', webhooks),
      {
        operation: 'insert_page',
        title: 'Quokkaveil plan',
        condition: BETA,
        document: { markdown: `The ${SECRET} roadmap: a new zephyrine engine install.` },
      },
    ],
    merge: true,
  });
  const content = await org.owner.client.get(`/v1/spaces/${guides.space.id}/content`).expect(200);
  const pages = content.body.pages as { id: string; title: string }[];
  const idOf = (title: string) => pages.find((page) => page.title === title)!.id;
  const base = `/v1/orgs/${org.id}/sites/${site.id}`;
  await org.owner.client.put(`${base}/customization`, { ai: { mode: aiMode } }).expect(200);
  await org.owner.client.post(`${base}/publish`).expect(200);
  const url = `https://docs.localhost/${org.id}/${site.id}`;
  const tokenOf = async (claims: object) => {
    const res = await t.anonymous
      .post('/v1/urls/published', { url, visitor: { unsignedClaims: claims } })
      .expect(200);
    return t.as(res.body.apiToken as string);
  };
  return {
    org,
    site,
    guides,
    url,
    base,
    revisionId: content.body.id as string,
    installId: idOf('Installation'),
    webhooksId: idOf('Webhooks'),
    hiddenId: idOf('Quokkaveil plan'),
    plain: await tokenOf({}),
    tester: await tokenOf({ beta: true }),
  };
}
