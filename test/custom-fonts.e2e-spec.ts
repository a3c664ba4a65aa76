import { Revalidation } from '../src/platform/revalidation/revalidation.service';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { BINDERY_DOCUMENT, expectConforms, GITBOOK_0202 } from './helpers/conformance';
import {
  createCustomFont,
  type CustomFontBody,
  fontFile,
  pathOfUrl,
  uploadFontFile,
} from './helpers/custom-fonts';
import type { TestOrganization } from './helpers/factories';

/**
 * Custom fonts (GitBook 0.202.0's custom-fonts and storage groups): files uploaded by signed URL
 * (`generateStorageUploadURL`, then a PUT of the bytes), fonts made of them, the files served to
 * sites, and sites naming a font in their customization.
 */

const MAX_BYTES = 4096;
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.alloc(64, 1),
]);

describe('custom fonts', () => {
  let t: TestApp;
  /** Tags revalidated since the start (the renderer's, heard in this process). */
  const revalidated: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ CUSTOM_FONT_MAX_BYTES: String(MAX_BYTES) });
    t.bindery.app.get(Revalidation).onChange((tags) => revalidated.push(...tags));
  });
  afterAll(() => t.close());

  const fontsPath = (org: { id: string }) => `/v1/orgs/${org.id}/fonts`;
  const uploadPath = (org: { id: string }) => `/v1/orgs/${org.id}/storage/upload`;
  const upload = (org: TestOrganization, bytes: Buffer, type?: string) =>
    uploadFontFile(org.owner.client, t.anonymous, org.id, bytes, type);
  const font = (org: TestOrganization, family?: string, weights?: number[]) =>
    createCustomFont(org.owner.client, t.anonymous, org.id, family, weights);
  const error = (code: number) => ({ error: { code, message: expect.any(String) } });
  const fileUrl = (body: CustomFontBody, weight: number) =>
    body.fontFaces.find((face) => face.weight === weight)!.sources[0].url;

  describe('POST /v1/orgs/{organizationId}/storage/upload (generateStorageUploadURL) and the upload', () => {
    it('signs a URL that takes the bytes without a token, and a key for them', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(uploadPath(org), {
          file: { name: 'Brand.woff2', type: 'font/woff2', size: 256 },
          kind: 'customization_font',
        })
        .expect(201);
      expectConforms(res, 'generateStorageUploadURL', GITBOOK_0202);
      expect(res.body).toEqual({
        object: 'storage-signed-url',
        url: expect.stringMatching(
          new RegExp(`^${TEST_PUBLIC_URL}/v1/storage/uploads/${org.id}/customization_font/`),
        ),
        key: expect.stringMatching(new RegExp(`^uploads/${org.id}/customization_font/[\\w-]+$`)),
      });
      const sent = await t.anonymous
        .put(pathOfUrl(res.body.url), fontFile())
        .set('Content-Type', 'font/woff2')
        .expect(204);
      expectConforms(sent, 'uploadStorageFile', BINDERY_DOCUMENT);
      // The key now names a font file the organization's fonts may take.
      const made = await org.owner.client
        .put(fontsPath(org), {
          fontFamily: 'Uploaded',
          fontFaces: [{ weight: 400, storageKey: res.body.key }],
        })
        .expect(201);
      expect(made.body.fontFamily).toBe('Uploaded');
    });

    it('refuses what is not a font (400), past the size (413), and a URL whose signature fails or has expired (403)', async () => {
      const org = await t.factories.organization();
      const sign = async (size = 256) =>
        pathOfUrl(
          (
            await org.owner.client
              .post(uploadPath(org), {
                file: { name: 'f', type: 'font/woff2', size },
                kind: 'customization_font',
              })
              .expect(201)
          ).body.url,
        );

      const png = await t.anonymous.put(await sign(), PNG).set('Content-Type', 'image/png');
      expect({ status: png.status, body: png.body }).toEqual({
        status: 400,
        body: {
          error: {
            code: 400,
            message:
              'The file is not a font: a WOFF2, WOFF, TrueType or OpenType file is expected.',
          },
        },
      });
      const large = await t.anonymous
        .put(await sign(), fontFile('woff2', MAX_BYTES + 1))
        .set('Content-Type', 'font/woff2')
        .expect(413);
      expect(large.body).toEqual(error(413));

      const url = await sign();
      const forged = url.replace(/signature=[^&]+/, 'signature=AAAA');
      const bad = await t.anonymous.put(forged, fontFile()).expect(403);
      expect(bad.body).toEqual({ error: { code: 403, message: 'The upload URL is not valid.' } });
      // The signature covers the organization and the upload: another path is refused.
      const elsewhere = url.replace(org.id, 'otherOrganization000');
      await t.anonymous.put(elsewhere, fontFile()).expect(403);
      t.clock.advance(61 * 60 * 1000);
      const late = await t.anonymous.put(url, fontFile()).expect(403);
      expect(late.body.error.message).toMatch(/expired/);
    });

    it('refuses the kinds Bindery does not take and files over the size (400), with the field named', async () => {
      const org = await t.factories.organization();
      const other = await org.owner.client
        .post(uploadPath(org), {
          file: { name: 'a.zip', type: 'x', size: 10 },
          kind: 'organization_file',
        })
        .expect(400);
      expect(other.body).toEqual({
        error: {
          code: 400,
          message:
            'kind: Bindery takes uploads of customization_font, import_file only (got organization_file).',
        },
      });
      const large = await org.owner.client
        .post(uploadPath(org), {
          file: { name: 'f', type: 'font/woff2', size: MAX_BYTES + 1 },
          kind: 'customization_font',
        })
        .expect(400);
      expect(large.body.error.message).toMatch(/^file\.size: /);
      const missing = await org.owner.client
        .post(uploadPath(org), { kind: 'customization_font' })
        .expect(400);
      expect(missing.body).toEqual({ error: { code: 400, message: 'file is required' } });
      const unknown = await org.owner.client
        .post(uploadPath(org), { file: { name: 'f', type: 't', size: 1 }, kind: 'font' })
        .expect(400);
      expect(unknown.body.error.message).toMatch(/^kind must be one of /);
    });

    it('is for admins (403 to other roles) of the organization (404 to others)', async () => {
      const org = await t.factories.organization();
      const body = {
        file: { name: 'f', type: 'font/woff2', size: 10 },
        kind: 'customization_font',
      };
      const creator = await t.factories.asMember(org, 'create');
      expect((await creator.post(uploadPath(org), body).expect(403)).body).toEqual(error(403));
      const stranger = (await t.factories.organization()).owner.client;
      const hidden = await stranger.post(uploadPath(org), body).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
    });
  });

  describe('PUT /v1/orgs/{organizationId}/fonts (createCustomFont)', () => {
    it('makes a font of the uploaded files, served publicly with their type, cached for good, to any origin', async () => {
      const org = await t.factories.organization();
      const regular = fontFile('woff2', 300);
      const bold = fontFile('ttf', 400);
      const res = await org.owner.client
        .put(fontsPath(org), {
          fontFamily: 'Brand Sans',
          fontFaces: [
            { weight: 700, storageKey: await upload(org, bold, 'font/ttf') },
            { weight: 400, storageKey: await upload(org, regular) },
          ],
        })
        .expect(201);
      expectConforms(res, 'createCustomFont', GITBOOK_0202);
      const filePattern = (format: string) =>
        new RegExp(`^${TEST_PUBLIC_URL}/v1/custom-fonts/${res.body.id}/[\\w-]+\\.${format}$`);
      expect(res.body).toEqual({
        id: expect.any(String),
        custom: true,
        fontFamily: 'Brand Sans',
        fontFaces: [
          {
            weight: 400,
            sources: [{ url: expect.stringMatching(filePattern('woff2')), format: 'woff2' }],
          },
          // GitBook's FontSource names woff2 and woff only: a TrueType file goes without.
          { weight: 700, sources: [{ url: expect.stringMatching(filePattern('ttf')) }] },
        ],
        permissions: { edit: true },
      });

      const served = await t.anonymous
        .get(pathOfUrl(fileUrl(res.body, 400)))
        .set('Origin', 'https://docs.example.com')
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(served.headers['content-type']).toBe('font/woff2');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['access-control-allow-origin']).toBe('*');
      expect(Buffer.compare(served.body as Buffer, regular)).toBe(0);
      const ttf = await t.anonymous.get(pathOfUrl(fileUrl(res.body, 700))).expect(200);
      expect(ttf.headers['content-type']).toBe('font/ttf');

      const read = await org.owner.client.get(`${fontsPath(org)}/${res.body.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('takes each upload once: its key names nothing afterwards (400)', async () => {
      const org = await t.factories.organization();
      const storageKey = await upload(org, fontFile());
      const body = { fontFamily: 'Once', fontFaces: [{ weight: 400, storageKey }] };
      await org.owner.client.put(fontsPath(org), body).expect(201);
      const again = await org.owner.client.put(fontsPath(org), body).expect(400);
      expect(again.body.error.message).toMatch(/^fontFaces\.0\.storageKey: no file was uploaded/);
    });

    it('answers 400 for bad input: a key of another organization, one never sent, twice the same weight, fields missing or too long', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await upload(other, fontFile());
      const mine = await upload(org, fontFile());
      const cases: [object, string | RegExp][] = [
        [
          { fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: theirs }] },
          /^fontFaces\.0\.storageKey: no file was uploaded under this key/,
        ],
        [
          {
            fontFamily: 'F',
            fontFaces: [
              { weight: 400, storageKey: mine },
              { weight: 700, storageKey: `uploads/${org.id}/customization_font/neverSent000` },
            ],
          },
          /^fontFaces\.1\.storageKey: no file was uploaded/,
        ],
        [
          {
            fontFamily: 'F',
            fontFaces: [
              { weight: 400, storageKey: mine },
              { weight: 400, storageKey: mine },
            ],
          },
          'fontFaces.1.weight: weight 400 is given twice.',
        ],
        [{ fontFamily: 'F' }, 'fontFaces is required'],
        [{ fontFamily: 'F', fontFaces: [{ weight: 400 }] }, 'fontFaces.0.storageKey is required'],
        [
          { fontFamily: 'x'.repeat(51), fontFaces: [{ weight: 400, storageKey: mine }] },
          'fontFamily must be shorter than or equal to 50 characters',
        ],
        [
          { fontFamily: 'F', fontFaces: [{ weight: 1001, storageKey: mine }] },
          'fontFaces.0.weight must not be greater than 1000',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await org.owner.client.put(fontsPath(org), body);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { error: { code: 400, message: expect.stringMatching(message) } },
        });
      }
      // None of them took the upload: it still makes a font.
      await org.owner.client
        .put(fontsPath(org), { fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: mine }] })
        .expect(201);
    });

    it('answers 412 without a regular face (weight 400), as GitBook does', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .put(fontsPath(org), {
          fontFamily: 'Bold only',
          fontFaces: [{ weight: 700, storageKey: await upload(org, fontFile()) }],
        })
        .expect(412);
      expectConforms(res, 'createCustomFont', GITBOOK_0202);
      expect(res.body).toEqual({
        error: { code: 412, message: 'fontFaces: a font needs a regular face (weight 400).' },
      });
    });

    it('is for admins: 403 to a member with a lower role, 404 to another organization', async () => {
      const org = await t.factories.organization();
      const body = {
        fontFamily: 'F',
        fontFaces: [{ weight: 400, storageKey: await upload(org, fontFile()) }],
      };
      const creator = await t.factories.asMember(org, 'create');
      expect((await creator.put(fontsPath(org), body).expect(403)).body).toEqual(error(403));
      const stranger = (await t.factories.organization()).owner.client;
      const hidden = await stranger.put(fontsPath(org), body).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
    });
  });

  describe('GET /v1/orgs/{organizationId}/fonts (listCustomFonts) and /fonts/{fontId} (getCustomFont)', () => {
    it('lists the fonts oldest first, page by page, to every member with a role (edit: admins only)', async () => {
      const org = await t.factories.organization();
      const first = await font(org, 'First');
      t.clock.advance(1000);
      const second = await font(org, 'Second', [400, 700]);
      const reader = await t.factories.asMember(org, 'read');

      const res = await reader.get(fontsPath(org)).expect(200);
      expectConforms(res, 'listCustomFonts', GITBOOK_0202);
      expect(res.body).toEqual({
        items: [
          { ...first, permissions: { edit: false } },
          { ...second, permissions: { edit: false } },
        ],
        count: 2,
      });
      const page = await reader.get(`${fontsPath(org)}?limit=1`).expect(200);
      expect(page.body.items.map((f: CustomFontBody) => f.id)).toEqual([first.id]);
      const next = await reader
        .get(`${fontsPath(org)}?limit=1&page=${page.body.next.page as string}`)
        .expect(200);
      expect(next.body.items.map((f: CustomFontBody) => f.id)).toEqual([second.id]);
      expect(next.body.next).toBeUndefined();

      const one = await reader.get(`${fontsPath(org)}/${second.id}`).expect(200);
      expectConforms(one, 'getCustomFont', GITBOOK_0202);
      expect(one.body).toEqual({ ...second, permissions: { edit: false } });
    });

    it('answers 403 to a guest, 404 to another organization and for a font that is not the organization’s', async () => {
      const org = await t.factories.organization();
      const mine = await font(org);
      const other = await t.factories.organization();
      const theirs = await font(other);
      const guest = await t.factories.asMember(org, null);
      expect((await guest.get(fontsPath(org)).expect(403)).body).toEqual(error(403));
      expect((await guest.get(`${fontsPath(org)}/${mine.id}`).expect(403)).body).toEqual(
        error(403),
      );
      const notFound = { error: { code: 404, message: 'Custom font not found.' } };
      const unknown = await org.owner.client.get(`${fontsPath(org)}/noSuchFont`).expect(404);
      expectConforms(unknown, 'getCustomFont', GITBOOK_0202);
      expect(unknown.body).toEqual(notFound);
      const elsewhere = await org.owner.client.get(`${fontsPath(org)}/${theirs.id}`).expect(404);
      expect(elsewhere.body).toEqual(notFound);
      const stranger = other.owner.client;
      const hidden = { error: { code: 404, message: 'Organization not found.' } };
      expect((await stranger.get(fontsPath(org)).expect(404)).body).toEqual(hidden);
      expect((await stranger.get(`${fontsPath(org)}/${mine.id}`).expect(404)).body).toEqual(hidden);
    });
  });

  describe('POST /v1/orgs/{organizationId}/fonts/{fontId} (updateCustomFont)', () => {
    it('renames, replaces a face, adds and removes weights; the replaced files are no longer served', async () => {
      const org = await t.factories.organization();
      const created = await font(org, 'Brand', [400, 900]);
      const replacement = fontFile('woff', 320);
      const res = await org.owner.client
        .post(`${fontsPath(org)}/${created.id}`, {
          fontFamily: 'Brand Text',
          fontFaces: [
            { weight: 400, storageKey: await upload(org, replacement, 'font/woff') },
            { weight: 700, storageKey: await upload(org, fontFile('otf')) },
            { weight: 900, storageKey: null },
          ],
        })
        .expect(201);
      expectConforms(res, 'updateCustomFont', GITBOOK_0202);
      expect(res.body).toEqual({
        id: created.id,
        custom: true,
        fontFamily: 'Brand Text',
        fontFaces: [
          { weight: 400, sources: [{ url: expect.stringMatching(/\.woff$/), format: 'woff' }] },
          { weight: 700, sources: [{ url: expect.stringMatching(/\.otf$/) }] },
        ],
        permissions: { edit: true },
      });
      await t.anonymous.get(pathOfUrl(fileUrl(created, 400))).expect(404);
      await t.anonymous.get(pathOfUrl(fileUrl(created, 900))).expect(404);
      const served = await t.anonymous.get(pathOfUrl(fileUrl(res.body, 700))).expect(200);
      expect(served.headers['content-type']).toBe('font/otf');

      // Left out, a weight keeps its file; an empty update changes nothing.
      const renamed = await org.owner.client
        .post(`${fontsPath(org)}/${created.id}`, { fontFamily: 'Brand' })
        .expect(201);
      expect(renamed.body.fontFaces).toEqual(res.body.fontFaces);
      const same = await org.owner.client.post(`${fontsPath(org)}/${created.id}`, {}).expect(201);
      expect(same.body).toEqual(renamed.body);
    });

    it('answers 412 when the regular face would go, 400 for bad input, 404 for an unknown font', async () => {
      const org = await t.factories.organization();
      const created = await font(org);
      const path = `${fontsPath(org)}/${created.id}`;
      const gone = await org.owner.client
        .post(path, { fontFaces: [{ weight: 400, storageKey: null }] })
        .expect(412);
      expectConforms(gone, 'updateCustomFont', GITBOOK_0202);
      expect(gone.body.error.message).toBe('fontFaces: a font needs a regular face (weight 400).');
      const unchanged = await org.owner.client.get(path).expect(200);
      expect(unchanged.body.fontFaces).toEqual(created.fontFaces);

      const missing = await org.owner.client
        .post(path, { fontFaces: [{ weight: 700 }] })
        .expect(400);
      expect(missing.body).toEqual({
        error: { code: 400, message: 'fontFaces.0.storageKey is required' },
      });
      const nulled = await org.owner.client.post(path, { fontFamily: null }).expect(400);
      expect(nulled.body).toEqual(error(400));
      const foreign = await org.owner.client
        .post(path, { fontFaces: [{ weight: 700, storageKey: `uploads/${org.id}/x/y` }] })
        .expect(400);
      expect(foreign.body.error.message).toMatch(/^fontFaces\.0\.storageKey: no file was uploaded/);

      const unknown = await org.owner.client
        .post(`${fontsPath(org)}/noSuchFont`, { fontFamily: 'X' })
        .expect(404);
      expectConforms(unknown, 'updateCustomFont', GITBOOK_0202);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Custom font not found.' } });
    });

    it('is for admins: 403 to a member with a lower role, 404 to another organization', async () => {
      const org = await t.factories.organization();
      const created = await font(org);
      const path = `${fontsPath(org)}/${created.id}`;
      const editor = await t.factories.asMember(org, 'edit');
      expect((await editor.post(path, { fontFamily: 'X' }).expect(403)).body).toEqual(error(403));
      const stranger = (await t.factories.organization()).owner.client;
      await stranger.post(path, { fontFamily: 'X' }).expect(404);
      expect((await org.owner.client.get(path).expect(200)).body.fontFamily).toBe('Brand Sans');
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/fonts/{fontId} (deleteCustomFont)', () => {
    it('deletes the font and its files (205); 204 when there is no such font', async () => {
      const org = await t.factories.organization();
      const created = await font(org, 'Gone', [400, 700]);
      const path = `${fontsPath(org)}/${created.id}`;
      const res = await org.owner.client.delete(path).expect(205);
      expectConforms(res, 'deleteCustomFont', GITBOOK_0202);
      await org.owner.client.get(path).expect(404);
      for (const weight of [400, 700]) {
        await t.anonymous.get(pathOfUrl(fileUrl(created, weight))).expect(404);
      }
      const again = await org.owner.client.delete(path).expect(204);
      expectConforms(again, 'deleteCustomFont', GITBOOK_0202);
    });

    it('is for admins: 403 to a member with a lower role, 404 to another organization', async () => {
      const org = await t.factories.organization();
      const created = await font(org);
      const path = `${fontsPath(org)}/${created.id}`;
      const creator = await t.factories.asMember(org, 'create');
      expect((await creator.delete(path).expect(403)).body).toEqual(error(403));
      const stranger = (await t.factories.organization()).owner.client;
      const hidden = await stranger.delete(path).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      await org.owner.client.get(path).expect(200);
    });
  });

  describe("in a site's customization", () => {
    async function siteWithSpaces(org: TestOrganization) {
      const site = await t.factories.site(org, {
        spaces: [
          (await t.factories.space(org, { title: 'Guide' })).id,
          (await t.factories.space(org, { title: 'API' })).id,
        ],
      });
      const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
      const structure = await org.owner.client.get(`${sitePath}/structure`).expect(200);
      const siteSpaces = (structure.body.structure as { id: string }[]).map((s) => s.id);
      return { site, sitePath, siteSpaces };
    }
    const definition = ({ permissions: _, ...rest }: CustomFontBody) => rest;

    it('names a font by its id; the site and its published profile answer it with the URLs of its files', async () => {
      const org = await t.factories.organization();
      const brand = await font(org, 'Brand Sans', [400, 700]);
      const { site, sitePath, siteSpaces } = await siteWithSpaces(org);

      const put = await org.owner.client
        .put(`${sitePath}/customization`, { styling: { font: { id: brand.id, custom: true } } })
        .expect(200);
      expectConforms(put, 'updateSiteCustomizationById');
      expect(put.body.styling.font).toEqual(definition(brand));
      expect(put.body.styling.monospaceFont).toBe('IBMPlexMono');

      // What GitBook's app sends back (the font as listed, `permissions` too) names it as well.
      const resent = await org.owner.client
        .put(`${sitePath}/customization`, { styling: { font: brand, theme: 'muted' } })
        .expect(200);
      expect(resent.body.styling.font).toEqual(definition(brand));

      const got = await org.owner.client.get(`${sitePath}/customization`).expect(200);
      expectConforms(got, 'getSiteCustomizationById');
      expect(got.body.styling.font).toEqual(definition(brand));

      const published = await org.owner.client.get(`${sitePath}/published`).expect(200);
      expectConforms(published, 'getPublishedContentSite', GITBOOK_0202);
      expect(published.body.site.id).toBe(site.id);
      expect(published.body.customizations.site.styling.font).toEqual(definition(brand));
      for (const siteSpace of siteSpaces) {
        expect(published.body.customizations.siteSpaces[siteSpace].styling.font).toEqual(
          definition(brand),
        );
      }
      // The renderer loads the files from the sources it was given.
      const regular = definition(brand).fontFaces[0].sources[0].url;
      await t.anonymous.get(pathOfUrl(regular)).expect(200);
    });

    it('refuses a font the organization does not have (400)', async () => {
      const org = await t.factories.organization();
      const theirs = await font(await t.factories.organization());
      const { sitePath } = await siteWithSpaces(org);
      for (const id of [theirs.id, 'noSuchFont']) {
        const res = await org.owner.client
          .put(`${sitePath}/customization`, { styling: { font: { id, custom: true } } })
          .expect(400);
        expect(res.body).toEqual({
          error: {
            code: 400,
            message: `styling.font: the organization has no custom font ${JSON.stringify(id)}.`,
          },
        });
      }
    });

    it('answers the font as it is now: a change shows at once, and the sites using it are revalidated', async () => {
      const org = await t.factories.organization();
      const brand = await font(org, 'Brand Sans');
      const unused = await font(org, 'Unused');
      const { site, sitePath, siteSpaces } = await siteWithSpaces(org);
      // Another site of the organization, which names no font: never revalidated here.
      await t.factories.site(org, { title: 'Other' });
      await org.owner.client
        .put(`${sitePath}/customization`, { styling: { font: { id: brand.id, custom: true } } })
        .expect(200);
      // A site space's override names a font too, as code font.
      const code = await font(org, 'Brand Mono');
      const overridden = await org.owner.client
        .patch(`${sitePath}/site-spaces/${siteSpaces[1]}/customization`, {
          styling: { monospaceFont: { id: code.id, custom: true } },
        })
        .expect(200);
      expectConforms(overridden, 'overrideSiteSpaceCustomizationById');
      expect(overridden.body.styling).toMatchObject({
        font: definition(brand),
        monospaceFont: definition(code),
      });

      revalidated.length = 0;
      const renamed = await org.owner.client
        .post(`${fontsPath(org)}/${brand.id}`, {
          fontFamily: 'Brand Sans 2',
          fontFaces: [{ weight: 400, storageKey: await upload(org, fontFile()) }],
        })
        .expect(201);
      expect(revalidated).toEqual([`site:${site.id}`]);
      const published = await org.owner.client.get(`${sitePath}/published`).expect(200);
      expect(published.body.customizations.site.styling.font).toEqual(
        definition(renamed.body as CustomFontBody),
      );

      revalidated.length = 0;
      await org.owner.client
        .post(`${fontsPath(org)}/${code.id}`, { fontFamily: 'Mono 2' })
        .expect(201);
      expect(revalidated).toEqual([`site:${site.id}`]);
      revalidated.length = 0;
      await org.owner.client
        .post(`${fontsPath(org)}/${unused.id}`, { fontFamily: 'Still unused' })
        .expect(201);
      expect(revalidated).toEqual([]);
    });

    it('falls back when a font it uses is deleted: a site to the default font, a site space to its site’s', async () => {
      const org = await t.factories.organization();
      const brand = await font(org, 'Brand Sans');
      const heading = await font(org, 'Brand Display');
      const { site, sitePath, siteSpaces } = await siteWithSpaces(org);
      await org.owner.client
        .put(`${sitePath}/customization`, { styling: { font: { id: brand.id, custom: true } } })
        .expect(200);
      await org.owner.client
        .patch(`${sitePath}/site-spaces/${siteSpaces[0]}/customization`, {
          styling: { font: { id: heading.id, custom: true } },
        })
        .expect(200);

      // Deleting a font a site space uses: that site space shows its site's font again.
      revalidated.length = 0;
      await org.owner.client.delete(`${fontsPath(org)}/${heading.id}`).expect(205);
      expect(revalidated).toEqual([`site:${site.id}`]);
      const space = await org.owner.client
        .get(`${sitePath}/site-spaces/${siteSpaces[0]}/customization`)
        .expect(200);
      expectConforms(space, 'getSiteSpaceCustomizationById');
      expect(space.body.styling.font).toEqual(definition(brand));

      // Deleting the site's font: the site shows the default font.
      await org.owner.client.delete(`${fontsPath(org)}/${brand.id}`).expect(205);
      const got = await org.owner.client.get(`${sitePath}/customization`).expect(200);
      expect(got.body.styling.font).toBe('Inter');
      const published = await org.owner.client.get(`${sitePath}/published`).expect(200);
      expectConforms(published, 'getPublishedContentSite', GITBOOK_0202);
      expect(published.body.customizations.site.styling.font).toBe('Inter');
      for (const siteSpace of siteSpaces) {
        expect(published.body.customizations.siteSpaces[siteSpace].styling.font).toBe('Inter');
      }
      // The site's other settings still write, the stale name aside.
      const patched = await org.owner.client
        .patch(`${sitePath}/site-spaces/${siteSpaces[1]}/customization`, {
          styling: { theme: 'bold' },
        })
        .expect(200);
      expect(patched.body.styling).toMatchObject({ theme: 'bold', font: 'Inter' });
    });
  });
});
