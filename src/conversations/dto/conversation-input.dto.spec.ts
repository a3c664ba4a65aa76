import { DomainError } from '../../platform/errors/domain-error';
import { parseConversationInputs } from './conversation-input.dto';

const good = (id: string) => ({
  id,
  subject: 'Export',
  parts: [{ type: 'message', role: 'user', body: 'The export fails.' }],
  metadata: { url: 'https://x.test/1', attributes: { a: 'b' }, createdAt: '2026-01-02T03:04:05Z' },
});

function problem(body: unknown): string {
  try {
    parseConversationInputs(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('bad_request');
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('parseConversationInputs', () => {
  it('takes one conversation or a batch', () => {
    expect(parseConversationInputs(good('a')).map((c) => c.id)).toEqual(['a']);
    expect(parseConversationInputs([good('a'), good('b')]).map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('names the item and the field of a problem', () => {
    expect(
      problem([good('a'), { ...good('b'), parts: [{ type: 'message', role: 'x', body: 'y' }] }]),
    ).toMatch(/^\[1\]\.parts\.0\.role /);
    expect(problem({ ...good('a'), subject: 'x'.repeat(513) })).toMatch(/^subject /);
    expect(problem([good('a'), good('a')])).toMatch(/\[1\].*\[0\]/);
    expect(problem([good('a'), null])).toMatch(/\[1\] must be an object/);
    expect(problem({ ...good('a'), metadata: { attributes: { n: 1 } } })).toMatch(
      /^metadata\.attributes values must be strings/,
    );
    expect(problem([])).toMatch(/no conversation/);
    expect(problem(Array.from({ length: 501 }, (_, i) => good(String(i))))).toMatch(/at most 500/);
  });

  it('refuses a list where an object is declared, and lists inside the list of parts', () => {
    const part = good('a').parts[0];
    expect(problem({ ...good('a'), parts: [[]] })).toBe('parts.0 must be an object');
    expect(problem({ ...good('a'), parts: [part, [part]] })).toBe('parts.1 must be an object');
    expect(problem([good('a'), { ...good('b'), metadata: [{}] }])).toBe(
      '[1].metadata must be an object',
    );
  });
});
