import { extractIssues, sentencesOf, truncate } from './issue-extraction';

const user = (body: string) => ({ type: 'message' as const, role: 'user' as const, body });
const team = (body: string) => ({ type: 'message' as const, role: 'team-member' as const, body });

describe('extractIssues', () => {
  it('finds what the user could not do, in their words', () => {
    expect(
      extractIssues({
        subject: 'Login',
        parts: [
          user('Hi team, I cannot log in with SSO since this morning. It says access denied.'),
        ],
      }),
    ).toEqual([
      {
        title: 'I cannot log in with SSO since this morning.',
        summary: 'I cannot log in with SSO since this morning. It says access denied.',
      },
    ]);
  });

  it('gives several issues for distinct problems, one for a problem told twice', () => {
    const issues = extractIssues({
      subject: null,
      parts: [
        user('The PDF export fails with a timeout error. Also, how do I invite a new member?'),
        team('We are on it.'),
        user('The PDF export still fails with that timeout error.'),
      ],
    });
    expect(issues.map((issue) => issue.title)).toEqual([
      'The PDF export fails with a timeout error.',
      'How do I invite a new member?',
    ]);
    expect(issues[0].summary).toContain('still fails');
  });

  it('gives none for thanks, and ignores what the team says', () => {
    expect(
      extractIssues({
        subject: 'Thanks',
        parts: [user('Thank you so much!'), team('Why is the export broken? We cannot tell.')],
      }),
    ).toEqual([]);
    expect(extractIssues({ subject: null, parts: [] })).toEqual([]);
  });

  it('reads HTML and markdown bodies', () => {
    expect(sentencesOf('<p>Hello team,</p><p>The <b>search</b> is broken.</p>')).toEqual([
      'The search is broken.',
    ]);
    expect(sentencesOf('**Why** does `sync` fail?\nIt never ends.')).toEqual([
      'Why does sync fail?',
      'It never ends.',
    ]);
  });
});

describe('truncate', () => {
  it('cuts at a word boundary with an ellipsis', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('the quick brown fox jumps', 12)).toBe('the quick…');
  });
});
