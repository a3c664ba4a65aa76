/**
 * An integration's `contentSecurityPolicy` (its manifest's: one string, or sources by
 * directive) as one header value. Manifests written in YAML often give a directive's sources
 * on several lines: whitespace runs become one space, and empty directives are left out.
 */
export function contentSecurityPolicyHeader(
  policy: string | Record<string, string> | null,
): string | null {
  if (policy === null) return null;
  const text =
    typeof policy === 'string'
      ? policy
      : Object.entries(policy)
          .map(([directive, sources]) => `${directive} ${sources}`)
          .join(';');
  const header = text
    .split(';')
    .map((directive) => directive.replace(/\s+/g, ' ').trim())
    .filter((directive) => directive !== '')
    .join('; ');
  return header === '' ? null : header;
}
