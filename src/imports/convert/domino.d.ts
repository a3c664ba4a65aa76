declare module '@mixmark-io/domino' {
  /** An HTML document parsed by domino's HTML5 parser (typed by the callers, see dom.ts). */
  export function createDocument(html?: string, force?: boolean): unknown;
}
