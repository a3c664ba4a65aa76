import { createDocument } from '@mixmark-io/domino';

/**
 * The part of the DOM the converters use, typed here (the project compiles without the DOM
 * library): domino's nodes (turndown's own DOM), which Readability accepts too.
 */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  parentNode: DomElement | null;
  ownerDocument: DomDocument;
  childNodes: ArrayLike<DomNode>;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  previousSibling: DomNode | null;
  remove(): void;
  replaceWith(...nodes: (DomNode | string)[]): void;
  cloneNode(deep?: boolean): DomNode;
}

export interface DomElement extends DomNode {
  tagName: string;
  localName: string;
  className: string;
  id: string;
  innerHTML: string;
  outerHTML: string;
  children: ArrayLike<DomElement>;
  parentElement: DomElement | null;
  previousElementSibling: DomElement | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null | undefined;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  appendChild(node: DomNode): DomNode;
  before(...nodes: (DomNode | string)[]): void;
}

export interface DomDocument {
  title: string;
  body: DomElement;
  documentElement: DomElement;
  querySelector(selector: string): DomElement | null | undefined;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  createElement(tag: string): DomElement;
  createTextNode(text: string): DomNode;
}

/** An HTML document (a fragment is parsed into the body of one, as browsers do). */
export function parseDocument(html: string): DomDocument {
  return createDocument(html) as DomDocument;
}

/** The elements matching `selector` under `root`, as an array (safe to change while walking). */
export function all(root: DomElement | DomDocument, selector: string): DomElement[] {
  return Array.from(root.querySelectorAll(selector));
}

/** Replaces `element` by its children. */
export function unwrap(element: DomElement): void {
  element.replaceWith(...Array.from(element.childNodes));
}

/** Text with its runs of whitespace one space, trimmed. */
export function cleanText(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
