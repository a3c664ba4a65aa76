/**
 * Whether a `Prefer` header (RFC 7240) asks for the resource in the answer: the preference
 * `return=representation` among its comma-separated preferences, in any case. A request
 * without it gets GitBook's answer.
 */
export function prefersRepresentation(prefer: string | string[] | undefined): boolean {
  const values = Array.isArray(prefer) ? prefer : prefer === undefined ? [] : [prefer];
  return values
    .flatMap((value) => value.split(','))
    .some((preference) => {
      const [name, value] = preference.split(';')[0].split('=');
      return (
        name.trim().toLowerCase() === 'return' &&
        value?.trim().replace(/^"|"$/g, '').toLowerCase() === 'representation'
      );
    });
}
