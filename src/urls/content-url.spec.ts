import { parseAppContentUrl } from './content-url';

describe('parseAppContentUrl', () => {
  const app = 'https://app.example.com';
  const parse = (url: string, base = app) => parseAppContentUrl(new URL(url), base);

  it('reads collections, spaces, change requests and revisions, with a page path', () => {
    expect(parse(`${app}/o/O1/c/C1`)).toEqual({
      kind: 'collection',
      organizationId: 'O1',
      collectionId: 'C1',
    });
    expect(parse(`${app}/o/O1/s/S1`)).toEqual({
      kind: 'space',
      organizationId: 'O1',
      spaceId: 'S1',
      pagePath: '',
    });
    expect(parse(`${app}/o/O1/s/S1/guide/install?x=1#top`)).toMatchObject({
      spaceId: 'S1',
      pagePath: 'guide/install',
    });
    expect(parse(`${app}/o/O1/s/S1/~/changes/3/guide`)).toMatchObject({
      changeRequest: '3',
      pagePath: 'guide',
    });
    expect(parse(`${app}/o/O1/s/S1/~/revisions/R1`)).toMatchObject({
      revisionId: 'R1',
      pagePath: '',
    });
  });

  it('honours the base path of APP_URL, and tells other origins from unknown app paths', () => {
    expect(parse('https://app.example.com/app/o/O1/s/S1', `${app}/app/`)).toMatchObject({
      spaceId: 'S1',
    });
    expect(parse('https://app.example.com/o/O1/s/S1', `${app}/app`)).toBeNull();
    expect(parse('https://docs.example.com/o/O1/s/S1')).toBeNull();
    expect(parse('http://app.example.com/o/O1/s/S1')).toBeNull();
    for (const path of [
      '/',
      '/o/O1',
      '/o/O1/x/S1',
      '/o/O1/c/C1/more',
      '/o/O1/s/S1/~/x/1',
      '/o/O1/s/S1/~/changes',
      '/o/%E0%A4%A/s/S1',
    ]) {
      expect(parse(`${app}${path}`)).toBeUndefined();
    }
  });
});
