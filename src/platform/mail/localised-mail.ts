/** What an email says: its subject and its text part. */
export interface MailText {
  subject: string;
  text: string;
}

/** One language's version of an email, from the values it is about. */
export type MailTemplate<P> = (params: P) => MailText;

/**
 * An email in each language it is written in, by BCP 47 tag (`en`, `fr`, `pt-BR`); English
 * always. Translating one is adding a language's template beside the others.
 */
export type LocalisedMail<P> = { en: MailTemplate<P> } & Partial<Record<string, MailTemplate<P>>>;

/** The email in `locale` (`pt-BR`), else in its language (`pt`), else in English. */
export function renderMail<P>(
  mail: LocalisedMail<P>,
  locale: string | null | undefined,
  params: P,
) {
  const tag = locale?.trim() ?? '';
  const template = mail[tag] ?? mail[tag.split('-')[0].toLowerCase()] ?? mail.en;
  return template(params);
}
