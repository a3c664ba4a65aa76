import {
  MAX_MERGE_RULE_EXPRESSION,
  MAX_MERGE_RULES,
  mergeRulesProblems,
  mergeRuleUsers,
  normaliseMergeRules,
} from './merge-rules';

describe('mergeRulesProblems', () => {
  it.each([
    [{ type: 'none' }],
    [{ type: 'rules', rules: [] }],
    [
      {
        type: 'rules',
        rules: [
          { rule: 'require_specific_reviewers', users: ['u1', 'u2'] },
          { rule: 'require_one_of_specific_reviewers', users: ['u1'] },
          { rule: 'allow_bypass', users: [] },
          { rule: 'require_at_least_one_review' },
          { rule: 'require_all_reviews_approved' },
          { rule: 'require_agent_review' },
          { rule: 'require_up_to_date_change_request' },
          { rule: 'require_change_request_subject' },
          { rule: 'require_change_request_description' },
          { rule: 'custom', expression: 'changeRequest.subject != ""' },
          { rule: 'custom', expression: 'x'.repeat(MAX_MERGE_RULE_EXPRESSION) },
        ],
      },
    ],
  ])('accepts %j', (value) => {
    expect(mergeRulesProblems(value)).toEqual([]);
  });

  it.each([
    ['a string', 'none', ['mergeRules must be an object']],
    ['null', null, ['mergeRules must be an object']],
    ['an array', [], ['mergeRules must be an object']],
    ['no type', {}, ['mergeRules.type must be one of: none, rules']],
    ["spaces' inherit", { type: 'inherit' }, ['mergeRules.type must be one of: none, rules']],
    [
      'none with rules',
      { type: 'none', rules: [] },
      ['property mergeRules.rules should not exist'],
    ],
    ['rules without rules', { type: 'rules' }, ['mergeRules.rules must be an array']],
    ['rules not an array', { type: 'rules', rules: {} }, ['mergeRules.rules must be an array']],
    [
      'a rule that is not an object',
      { type: 'rules', rules: ['require_agent_review'] },
      ['mergeRules.rules.0 must be an object'],
    ],
    [
      'an unknown rule',
      { type: 'rules', rules: [{ rule: 'require_agent_review' }, { rule: 'be_nice' }] },
      [expect.stringMatching(/^mergeRules\.rules\.1\.rule must be one of: require_specific/)],
    ],
    [
      'users missing',
      { type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] },
      ['mergeRules.rules.0.users must be an array of user ids'],
    ],
    [
      'users that are not ids',
      { type: 'rules', rules: [{ rule: 'allow_bypass', users: ['ok', 3, ''] }] },
      [
        'mergeRules.rules.0.users.1 must be a user id',
        'mergeRules.rules.0.users.2 must be a user id',
      ],
    ],
    [
      'users on an argument-less rule',
      { type: 'rules', rules: [{ rule: 'require_agent_review', users: ['u1'] }] },
      ['property mergeRules.rules.0.users should not exist'],
    ],
    [
      'an expression on a users rule',
      { type: 'rules', rules: [{ rule: 'allow_bypass', users: [], expression: 'true' }] },
      ['property mergeRules.rules.0.expression should not exist'],
    ],
    [
      'custom without expression',
      { type: 'rules', rules: [{ rule: 'custom' }] },
      ['mergeRules.rules.0.expression must be a string'],
    ],
    [
      'custom with a long expression',
      { type: 'rules', rules: [{ rule: 'custom', expression: 'x'.repeat(1025) }] },
      ['mergeRules.rules.0.expression must be at most 1024 characters long'],
    ],
    [
      'too many rules',
      { type: 'rules', rules: Array(MAX_MERGE_RULES + 1).fill({ rule: 'require_agent_review' }) },
      [`mergeRules.rules must contain at most ${MAX_MERGE_RULES} rules`],
    ],
  ])('refuses %s', (_label, value, problems) => {
    expect(mergeRulesProblems(value)).toEqual(problems);
  });
});

describe('mergeRuleUsers / normaliseMergeRules', () => {
  it('lists every named user once, in order', () => {
    expect(
      mergeRuleUsers({
        type: 'rules',
        rules: [
          { rule: 'require_specific_reviewers', users: ['b', 'a'] },
          { rule: 'require_agent_review' },
          { rule: 'allow_bypass', users: ['a', 'c'] },
        ],
      }),
    ).toEqual(['b', 'a', 'c']);
    expect(mergeRuleUsers({ type: 'none' })).toEqual([]);
  });

  it('deduplicates the users of each rule', () => {
    expect(
      normaliseMergeRules({
        type: 'rules',
        rules: [
          { rule: 'allow_bypass', users: ['a', 'a', 'b'] },
          { rule: 'custom', expression: 'true' },
          { rule: 'require_agent_review' },
        ],
      }),
    ).toEqual({
      type: 'rules',
      rules: [
        { rule: 'allow_bypass', users: ['a', 'b'] },
        { rule: 'custom', expression: 'true' },
        { rule: 'require_agent_review' },
      ],
    });
  });
});
