import { type LocalisedMail, renderMail } from './localised-mail';

describe('renderMail', () => {
  const hello: LocalisedMail<{ name: string }> = {
    en: ({ name }) => ({ subject: `Hello ${name}`, text: `Hello ${name}.` }),
    fr: ({ name }) => ({ subject: `Bonjour ${name}`, text: `Bonjour ${name}.` }),
    'pt-BR': ({ name }) => ({ subject: `Olá ${name}`, text: `Olá ${name}.` }),
  };

  it.each([
    ['pt-BR', 'Olá Ada'],
    ['fr', 'Bonjour Ada'],
    ['fr-CA', 'Bonjour Ada'],
    ['de', 'Hello Ada'],
    [undefined, 'Hello Ada'],
    [null, 'Hello Ada'],
  ])('answers %s in the closest language written', (locale, subject) => {
    expect(renderMail(hello, locale, { name: 'Ada' }).subject).toBe(subject);
  });
});
