/**
 * A `LIKE ... ESCAPE '\'` pattern matching `text` anywhere, its own `%`, `_` and `\` taken
 * literally (a search for "50%" must not match everything).
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
