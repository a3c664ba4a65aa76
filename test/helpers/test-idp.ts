import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const UNSPECIFIED_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

/** A signing key with its self-signed certificate, made for the test. */
export interface TestKeyPair {
  privateKey: string;
  certificate: string;
}

/** What a test changes in a SAML response; everything else is what a good IdP sends. */
export interface TestResponseOptions {
  /** The ACS URL: the response's Destination and the assertion's Recipient unless given. */
  acsUrl: string;
  /** The SP entity ID the assertion is for (its Audience). */
  audience: string;
  /** The request answered; null (or absent): an IdP-initiated response. */
  inResponseTo?: string | null;
  email?: string;
  /** Default: the email, in emailAddress format. */
  nameId?: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
  recipient?: string;
  destination?: string;
  issuer?: string;
  /** Default: five minutes from now. */
  notOnOrAfter?: Date;
  /** Default: a minute ago. */
  notBefore?: Date;
  /** Default: a fresh random ID. */
  assertionId?: string;
  /** Sign with this key instead of the IdP's (a forged response). */
  signWith?: TestKeyPair;
  /** Leave the assertion unsigned. */
  unsigned?: boolean;
}

export async function testKeyPair(commonName = 'test-idp'): Promise<TestKeyPair> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { privateKey: pems.private, certificate: pems.cert };
}

/**
 * A SAML identity provider for tests: its key and self-signed certificate, and SAML responses
 * (HTTP-POST binding, base64) with a signed assertion, as Okta or Entra ID send them.
 */
export class TestIdp {
  readonly ssoUrl = 'https://idp.test/sso/saml';

  private constructor(
    readonly entityId: string,
    readonly keys: TestKeyPair,
  ) {}

  static async create(entityId = `https://idp.test/${randomBytes(4).toString('hex')}`) {
    return new TestIdp(entityId, await testKeyPair());
  }

  /** What to give the provider: `{entityID, certificate, ssoURL}`. */
  get settings() {
    return { entityID: this.entityId, certificate: this.keys.certificate, ssoURL: this.ssoUrl };
  }

  /** The base64 SAMLResponse. */
  response(options: TestResponseOptions): string {
    return Buffer.from(this.responseXml(options)).toString('base64');
  }

  responseXml(options: TestResponseOptions): string {
    const now = Date.now();
    const instant = new Date(now).toISOString();
    const notBefore = (options.notBefore ?? new Date(now - 60_000)).toISOString();
    const notOnOrAfter = (options.notOnOrAfter ?? new Date(now + 5 * 60_000)).toISOString();
    const email = options.email ?? 'ada@example.com';
    const nameId = options.nameId ?? email;
    const nameIdFormat =
      options.nameIdFormat ?? (options.nameId ? UNSPECIFIED_FORMAT : EMAIL_FORMAT);
    const issuer = escapeXml(options.issuer ?? this.entityId);
    const inResponseTo = options.inResponseTo
      ? ` InResponseTo="${escapeXml(options.inResponseTo)}"`
      : '';
    const assertionId = options.assertionId ?? `_a${randomBytes(16).toString('hex')}`;
    const attributes = Object.entries(options.attributes ?? {})
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${[
            value,
          ]
            .flat()
            .map(
              (v) =>
                `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`,
            )
            .join('')}</saml:Attribute>`,
      )
      .join('');
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${instant}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${escapeXml(nameIdFormat)}">${escapeXml(nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(options.recipient ?? options.acsUrl)}"${inResponseTo}/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction>` +
      `</saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="${assertionId}">` +
      `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
      `</saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`;
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${instant}" Destination="${escapeXml(options.destination ?? options.acsUrl)}"${inResponseTo}>` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`;
    return options.unsigned ? xml : signAssertion(xml, options.signWith ?? this.keys);
  }
}

/** The assertion signed (enveloped, exclusive c14n, RSA-SHA256), the signature after its Issuer. */
function signAssertion(xml: string, keys: TestKeyPair): string {
  const signature = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  signature.computeSignature(xml, {
    prefix: 'ds',
    location: {
      reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
      action: 'after',
    },
  });
  return signature.getSignedXml();
}

/** What the start URL sent to the IdP: the AuthnRequest (inflated) and the RelayState. */
export interface ReceivedAuthnRequest {
  xml: string;
  id: string;
  acsUrl: string | undefined;
  issuer: string | undefined;
  relayState: string;
}

/** Reads the redirect of the start URL as the IdP would (HTTP-Redirect binding). */
export function readAuthnRequest(location: string): ReceivedAuthnRequest {
  const url = new URL(location);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`No SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`No ID in the AuthnRequest ${xml}`);
  return {
    xml,
    id,
    acsUrl: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1],
    issuer: /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(xml)?.[1],
    relayState: url.searchParams.get('RelayState') ?? '',
  };
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
