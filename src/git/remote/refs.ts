import { invalidInput } from '../../platform/errors/domain-error';

/** What `git check-ref-format` refuses, in short: `..`, `~^:?*[\\`, `@{`, `//`, a final `/` or `.`. */
const FORBIDDEN = /[\s~^:?*[\\]|\.\.|@\{|\/\/|\/$|\.$|\.lock(\/|$)/;

/**
 * A ref as git names it, `refs/heads/main`; a bare branch name means `refs/heads/<name>`. 400
 * for a name git would refuse (control characters, spaces, `..`, a part starting with `.`).
 */
export function normalizeRef(ref: string): string {
  const full = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  const control = [...full].some(
    (char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f,
  );
  if (control || FORBIDDEN.test(full) || full.split('/').some((part) => part.startsWith('.'))) {
    throw invalidInput(
      `ref: ${JSON.stringify(ref)} is not a valid Git ref (e.g. refs/heads/main).`,
    );
  }
  return full;
}
