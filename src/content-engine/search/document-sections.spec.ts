import type { DocumentBlock, JSONDocument } from '../documents/document';
import { documentSections } from './document-sections';

const text = (value: string) => ({
  object: 'text' as const,
  leaves: [{ object: 'leaf' as const, text: value, marks: [] }],
});
const paragraph = (value: string): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  nodes: [text(value)],
});
const heading = (
  level: 1 | 2 | 3,
  value: string,
  extra: Partial<DocumentBlock> = {},
): DocumentBlock => ({
  object: 'block',
  type: `heading-${level}`,
  nodes: [text(value)],
  ...extra,
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });

describe('documentSections', () => {
  it('gives one empty lead section for a missing or empty document', () => {
    expect(documentSections(null)).toEqual([{ id: '', title: '', body: '' }]);
    expect(documentSections(doc())).toEqual([{ id: '', title: '', body: '' }]);
  });

  it('splits at every heading level, the lead holding what comes before the first heading', () => {
    const sections = documentSections(
      doc(
        paragraph('Intro text.'),
        heading(1, 'Install'),
        paragraph('Run the installer.'),
        paragraph('Then restart.'),
        heading(2, 'Configure it'),
        paragraph('Edit the file.'),
        heading(3, 'Advanced'),
      ),
    );
    expect(sections).toEqual([
      { id: '', title: '', body: 'Intro text.' },
      { id: 'install', title: 'Install', body: 'Run the installer.\nThen restart.' },
      { id: 'configure-it', title: 'Configure it', body: 'Edit the file.' },
      { id: 'advanced', title: 'Advanced', body: '' },
    ]);
  });

  it('uses the heading’s anchor when it has one, and keeps ids unique', () => {
    const sections = documentSections(
      doc(
        heading(2, 'Usage', { data: { id: 'how-to' } }),
        heading(2, 'Usage', { meta: { id: 'usage' } }),
        heading(2, 'Usage'),
        heading(2, '', { key: 'k1' }),
      ),
    );
    expect(sections.map((s) => s.id)).toEqual(['', 'how-to', 'usage', 'usage-2', 'k1']);
  });

  it('reads text from marks, inlines, nested blocks, code lines and fragments', () => {
    const sections = documentSections(
      doc(
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'Bold ', marks: [{ object: 'mark', type: 'bold' }] },
                { object: 'leaf', text: 'and  plain', marks: [] },
              ],
            },
            {
              object: 'inline',
              type: 'link',
              data: { ref: { kind: 'url', url: 'https://x.test' } },
              nodes: [text(' link')],
            },
            { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } },
          ],
        },
        {
          object: 'block',
          type: 'list-unordered',
          nodes: [
            { object: 'block', type: 'list-item', nodes: [paragraph('first')] },
            { object: 'block', type: 'list-item', nodes: [paragraph('second')] },
          ],
        },
        {
          object: 'block',
          type: 'code',
          nodes: [
            { object: 'block', type: 'code-line', nodes: [text('const a = 1;')] },
            { object: 'block', type: 'code-line', nodes: [text('call(a);')] },
          ],
        },
        {
          object: 'block',
          type: 'expandable',
          isVoid: true,
          fragments: [
            { object: 'fragment', fragment: 'expandable-title', nodes: [paragraph('More')] },
            { object: 'fragment', fragment: 'expandable-body', nodes: [paragraph('Hidden text')] },
          ],
        },
        { object: 'block', type: 'divider', isVoid: true },
      ),
    );
    expect(sections).toEqual([
      {
        id: '',
        title: '',
        body: 'Bold and plain link\nfirst\nsecond\nconst a = 1;\ncall(a);\nMore\nHidden text',
      },
    ]);
  });
});
