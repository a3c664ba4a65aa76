import {
  assertionFacts,
  displayNameOf,
  EMAIL_NAME_ID_FORMAT,
  emailOf,
  responseDestination,
} from './saml-identity';

describe('emailOf', () => {
  it('takes a NameID of format emailAddress, lower-cased', () => {
    expect(emailOf({ nameID: ' Ada@Example.COM ', nameIDFormat: EMAIL_NAME_ID_FORMAT }, {})).toBe(
      'ada@example.com',
    );
  });

  it('takes an email or mail attribute when the NameID is no address', () => {
    const opaque = {
      nameID: '00u1abc',
      nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    };
    expect(emailOf(opaque, { email: 'ada@example.com' })).toBe('ada@example.com');
    expect(emailOf(opaque, { mail: ['Grace@Example.com', 'other@example.com'] })).toBe(
      'grace@example.com',
    );
    expect(
      emailOf(opaque, {
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': 'e@x.io',
      }),
    ).toBe('e@x.io');
  });

  it('ignores a NameID of another format even if it looks like an address', () => {
    expect(emailOf({ nameID: 'ada@example.com', nameIDFormat: 'unspecified' }, {})).toBeNull();
  });

  it.each([['not-an-address'], ['two@@example.com'], ['a b@example.com'], [{ x: 1 }]])(
    'finds none in %p',
    (value) => {
      expect(emailOf({ nameID: 'x', nameIDFormat: 'unspecified' }, { email: value })).toBeNull();
    },
  );
});

describe('displayNameOf', () => {
  it('prefers a display name, then given name and surname, then the local part', () => {
    expect(displayNameOf('ada@x.io', { displayName: 'Ada L.', givenName: 'Ada' })).toBe('Ada L.');
    expect(displayNameOf('ada@x.io', { givenName: 'Ada', surname: 'Lovelace' })).toBe(
      'Ada Lovelace',
    );
    expect(displayNameOf('ada@x.io', { firstName: ['Ada'] })).toBe('Ada');
    expect(displayNameOf('ada.lovelace@x.io', { displayName: '  ' })).toBe('ada.lovelace');
  });

  it('collapses spaces and keeps 255 characters', () => {
    expect(displayNameOf('a@x.io', { name: 'Ada \n  Lovelace' })).toBe('Ada Lovelace');
    expect(displayNameOf('a@x.io', { name: 'n'.repeat(300) })).toHaveLength(255);
  });
});

describe('assertionFacts', () => {
  it('reads the ID, the latest NotOnOrAfter, recipients and InResponseTo', () => {
    const parsed = {
      Assertion: {
        $: { ID: '_a1' },
        Subject: [
          {
            SubjectConfirmation: [
              {
                SubjectConfirmationData: [
                  {
                    $: {
                      NotOnOrAfter: '2026-05-01T10:05:00Z',
                      Recipient: 'https://sp/acs',
                      InResponseTo: '_r1',
                    },
                  },
                ],
              },
            ],
          },
        ],
        Conditions: [{ $: { NotOnOrAfter: '2026-05-01T10:10:00Z' } }],
      },
    };
    expect(assertionFacts(parsed)).toEqual({
      id: '_a1',
      notOnOrAfter: new Date('2026-05-01T10:10:00Z'),
      recipients: ['https://sp/acs'],
      inResponseTo: ['_r1'],
    });
  });

  it('reads nothing from nothing', () => {
    expect(assertionFacts(undefined)).toEqual({
      id: null,
      notOnOrAfter: null,
      recipients: [],
      inResponseTo: [],
    });
  });
});

describe('responseDestination', () => {
  it("reads the root Response's Destination, decoding entities", () => {
    expect(
      responseDestination(
        `<?xml version="1.0"?><samlp:Response xmlns:samlp="x" ID="_1" Destination="https://sp/acs?a=1&amp;b=2"><saml:Issuer/></samlp:Response>`,
      ),
    ).toBe('https://sp/acs?a=1&b=2');
    expect(responseDestination(`<Response Destination='https://sp/acs'>`)).toBe('https://sp/acs');
  });

  it('is undefined without one', () => {
    expect(responseDestination('<samlp:Response ID="_1"></samlp:Response>')).toBeUndefined();
    expect(responseDestination('<samlp:Response xDestination="y">')).toBeUndefined();
    expect(responseDestination('garbage')).toBeUndefined();
  });
});
