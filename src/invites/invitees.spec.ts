import { inviteEmailsProblems, MAX_INVITEES, normaliseInvitees } from './invitees';

describe('inviteEmailsProblems', () => {
  it.each([
    [['ada@example.com']],
    [[' Ada@Example.com ', { email: 'grace@example.com', role: 'admin' }]],
    [[{ email: 'guest@example.com', role: null }]],
    [Array(MAX_INVITEES).fill('ada@example.com')],
  ])('accepts %j', (value) => {
    expect(inviteEmailsProblems(value)).toEqual([]);
  });

  it.each([
    ['not an array', 'ada@example.com', ['emails must be an array']],
    ['an empty list', [], ['emails must contain at least 1 email']],
    [
      'too many',
      Array(MAX_INVITEES + 1).fill('ada@example.com'),
      [`emails must contain at most ${MAX_INVITEES} emails`],
    ],
    ['a bad address', ['ada@example.com', 'ada'], ['emails.1 must be an email address']],
    ['a number', [42], ['emails.0 must be an email address or an {email, role} object']],
    [
      'an object without role',
      [{ email: 'ada@example.com' }],
      ['emails.0.role must be one of admin, create, review, edit, comment, read or null (guest)'],
    ],
    [
      'an unknown role',
      [{ email: 'ada@example.com', role: 'owner' }],
      ['emails.0.role must be one of admin, create, review, edit, comment, read or null (guest)'],
    ],
    [
      'an object with a bad address',
      [{ email: 'nope', role: 'read' }],
      ['emails.0.email must be an email address'],
    ],
    [
      'an unknown key',
      [{ email: 'ada@example.com', role: 'read', sso: true }],
      ['property emails.0.sso should not exist'],
    ],
  ])('refuses %s', (_label, value, problems) => {
    expect(inviteEmailsProblems(value)).toEqual(problems);
  });
});

describe('normaliseInvitees', () => {
  it('lower-cases, keeps the first mention, and applies the default role to plain addresses', () => {
    expect(
      normaliseInvitees(
        [
          ' Ada@Example.com',
          { email: 'grace@example.com', role: 'admin' },
          { email: 'ADA@example.com', role: 'admin' },
          { email: 'guest@example.com', role: null },
        ],
        'edit',
      ),
    ).toEqual([
      { given: 'Ada@Example.com', email: 'ada@example.com', role: 'edit' },
      { given: 'grace@example.com', email: 'grace@example.com', role: 'admin' },
      { given: 'guest@example.com', email: 'guest@example.com', role: null },
    ]);
  });

  it('gives plain addresses a null default role (guests)', () => {
    expect(normaliseInvitees(['a@example.com'], null)).toEqual([
      { given: 'a@example.com', email: 'a@example.com', role: null },
    ]);
  });
});
