import { MAX_CHANGES_BYTES, REDACTED, summariseChanges } from './audit-changes';

describe('summariseChanges', () => {
  it('keeps fields and values, redacting secrets by key and by value', () => {
    expect(
      summariseChanges({
        title: 'Docs',
        token: 'abc',
        clientSecret: 'x',
        password: 'p',
        private_key: '-----BEGIN',
        key: 'k',
        nested: { apiKey: 'a', note: 'bnd_0123456789', blockKey: 'b1' },
        list: [{ accessToken: 't' }, 'bnd_admin_zzz'],
        url: 'https://ada:ghp_secret@git.example.com/repo.git',
      }),
    ).toEqual({
      title: 'Docs',
      token: REDACTED,
      clientSecret: REDACTED,
      password: REDACTED,
      private_key: REDACTED,
      key: REDACTED,
      nested: { apiKey: REDACTED, note: REDACTED, blockKey: 'b1' },
      list: [{ accessToken: REDACTED }, REDACTED],
      url: `https://${REDACTED}@git.example.com/repo.git`,
    });
  });

  it('cuts long strings and arrays, and keeps only field names past 4 KB', () => {
    const cut = summariseChanges({
      text: 'x'.repeat(1000),
      many: Array.from({ length: 30 }, () => 1),
    });
    expect((cut?.text as string).length).toBe(257);
    expect(cut?.many).toHaveLength(21);

    const wide = summariseChanges(
      Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, i])),
    );
    expect(Object.keys(wide ?? {})).toHaveLength(51);
    expect(wide?.['…']).toBe('10 more');

    const huge = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`field${i}`, 'y'.repeat(200)]),
    );
    const summary = summariseChanges(huge);
    expect(summary).toEqual({ truncated: true, fields: Object.keys(huge) });
    expect(Buffer.byteLength(JSON.stringify(summary))).toBeLessThanOrEqual(MAX_CHANGES_BYTES);
  });

  it('has nothing for no body', () => {
    expect(summariseChanges(undefined)).toBeNull();
    expect(summariseChanges({})).toEqual({});
  });
});
