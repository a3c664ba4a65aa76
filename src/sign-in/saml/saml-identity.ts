import type { Profile } from '@node-saml/node-saml';

export const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Attributes that carry the email address, by the names identity providers give them. */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const DISPLAY_NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'urn:oid:2.16.840.1.113730.3.1.241',
];
const GIVEN_NAME_ATTRIBUTES = [
  'givenName',
  'firstName',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  'urn:oid:2.5.4.42',
];
const SURNAME_ATTRIBUTES = [
  'surname',
  'sn',
  'lastName',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  'urn:oid:2.5.4.4',
];

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL = 320;
const MAX_DISPLAY_NAME = 255;

export type Attributes = Record<string, unknown>;

/**
 * The email address of the person signed in, lower-cased: the NameID when its format is
 * emailAddress, else an email attribute; null when there is none that looks like one.
 */
export function emailOf(
  profile: Pick<Profile, 'nameID' | 'nameIDFormat'>,
  attributes: Attributes,
): string | null {
  const candidates = [
    profile.nameIDFormat === EMAIL_NAME_ID_FORMAT ? profile.nameID : undefined,
    ...EMAIL_ATTRIBUTES.map((name) => firstString(attributes[name])),
  ];
  for (const candidate of candidates) {
    const email = candidate?.trim().toLowerCase();
    if (email && email.length <= MAX_EMAIL && EMAIL_PATTERN.test(email)) return email;
  }
  return null;
}

/**
 * The name a new user gets: a display name attribute, else given name and surname, else the
 * part of the address before `@`.
 */
export function displayNameOf(email: string, attributes: Attributes): string {
  const pick = (names: string[]) =>
    names.map((name) => firstString(attributes[name])?.trim()).find((value) => value);
  const joined = [pick(GIVEN_NAME_ATTRIBUTES), pick(SURNAME_ATTRIBUTES)].filter(Boolean).join(' ');
  const name = pick(DISPLAY_NAME_ATTRIBUTES) || joined || email.slice(0, email.lastIndexOf('@'));
  return name.replace(/\s+/g, ' ').slice(0, MAX_DISPLAY_NAME);
}

/** An attribute's value: a string, or the first string of a multi-valued one. */
function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.find((item): item is string => typeof item === 'string');
  return undefined;
}

/** What the checks beyond node-saml's read from the signed assertion. */
export interface AssertionFacts {
  id: string | null;
  /** The latest NotOnOrAfter of the assertion (conditions or subject confirmations). */
  notOnOrAfter: Date | null;
  /** The Recipient of each subject confirmation (undefined where it has none). */
  recipients: (string | undefined)[];
  /** The InResponseTo of each subject confirmation that has one. */
  inResponseTo: string[];
}

type XmlNode = { $?: Record<string, string>; [child: string]: unknown };

/** Reads the assertion as node-saml parsed it (xml2js, prefixes stripped, text in `_`). */
export function assertionFacts(parsed: unknown): AssertionFacts {
  const assertion = (parsed as { Assertion?: XmlNode } | null)?.Assertion;
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation').flatMap(
    (confirmation) => children(confirmation, 'SubjectConfirmationData'),
  );
  const times = [
    ...children(assertion, 'Conditions').map((conditions) => conditions.$?.NotOnOrAfter),
    ...confirmations.map((data) => data.$?.NotOnOrAfter),
  ]
    .filter((value): value is string => typeof value === 'string')
    .map((value) => Date.parse(value))
    .filter((ms) => Number.isFinite(ms));
  return {
    id: assertion?.$?.ID ?? null,
    notOnOrAfter: times.length > 0 ? new Date(Math.max(...times)) : null,
    recipients: confirmations.map((data) => data.$?.Recipient),
    inResponseTo: confirmations
      .map((data) => data.$?.InResponseTo)
      .filter((value): value is string => typeof value === 'string'),
  };
}

function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

/**
 * The Destination of the response's root element (outside the assertion's signature: a check
 * against misdirected responses, the signed Recipient being the one that counts); undefined
 * when it has none.
 */
export function responseDestination(responseXml: string): string | undefined {
  const root = /<(?:[A-Za-z_][\w.-]*:)?Response\b([^>]*)>/.exec(responseXml);
  if (!root) return undefined;
  const attribute = /(?:^|\s)Destination\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(root[1]);
  if (!attribute) return undefined;
  return decodeXmlEntities(attribute[1] ?? attribute[2]);
}

function decodeXmlEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_m, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[entity]) return named[entity];
    const code = entity.startsWith('#x')
      ? parseInt(entity.slice(2), 16)
      : parseInt(entity.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}
