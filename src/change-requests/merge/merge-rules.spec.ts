import type { MergeRule } from '../../orgs/entities/organization.entity';
import { effectiveMergeRules, unmetMergeRule, type MergeFacts } from './merge-rules';

const facts = (overrides: Partial<MergeFacts> = {}): MergeFacts => ({
  userId: 'merger',
  subject: 'Fix typos',
  hasDescription: true,
  outdated: false,
  approvedBy: new Set(),
  changesRequestedBy: new Set(),
  requestedReviewers: [],
  ...overrides,
});

const check = (rules: MergeRule[], overrides: Partial<MergeFacts> = {}) => {
  const error = unmetMergeRule(rules, facts(overrides));
  return error && { kind: error.kind, message: error.message };
};

describe('effectiveMergeRules', () => {
  const organization = { type: 'rules' as const, rules: [{ rule: 'require_at_least_one_review' }] };

  it("takes the organization's rules when the space inherits them, else the space's", () => {
    expect(effectiveMergeRules({ type: 'inherit' }, organization)).toEqual(organization.rules);
    expect(effectiveMergeRules({ type: 'none' }, organization)).toEqual([]);
    expect(effectiveMergeRules({ type: 'inherit' }, { type: 'none' })).toEqual([]);
    const own = [{ rule: 'require_change_request_subject' }];
    expect(effectiveMergeRules({ type: 'rules', rules: own }, organization)).toEqual(own);
  });
});

describe('unmetMergeRule', () => {
  it('lets anything merge without rules', () => {
    expect(check([], { subject: '', hasDescription: false, outdated: true })).toBeUndefined();
  });

  it('requires an approval of the current revision for require_at_least_one_review', () => {
    const rules = [{ rule: 'require_at_least_one_review' }];
    expect(check(rules)).toEqual({
      kind: 'forbidden',
      message: expect.stringContaining('require_at_least_one_review') as string,
    });
    expect(check(rules, { approvedBy: new Set(['ada']) })).toBeUndefined();
  });

  it('requires every requested reviewer and no request for changes for require_all_reviews_approved', () => {
    const rules = [{ rule: 'require_all_reviews_approved' }];
    const requested = { requestedReviewers: ['ada', 'bob'] };
    expect(check(rules, { ...requested, approvedBy: new Set(['ada']) })?.message).toContain('bob');
    expect(
      check(rules, {
        ...requested,
        approvedBy: new Set(['ada', 'bob']),
        changesRequestedBy: new Set(['cy']),
      })?.message,
    ).toContain('cy');
    expect(check(rules, { ...requested, approvedBy: new Set(['ada', 'bob']) })).toBeUndefined();
  });

  it('names the reviewers still missing for require_specific_reviewers', () => {
    const rules = [{ rule: 'require_specific_reviewers', users: ['ada', 'bob'] }];
    expect(check(rules, { approvedBy: new Set(['ada']) })?.message).toMatch(/bob\.$/);
    expect(check(rules, { approvedBy: new Set(['ada', 'bob']) })).toBeUndefined();
  });

  it('needs any one of the users for require_one_of_specific_reviewers', () => {
    const rules = [{ rule: 'require_one_of_specific_reviewers', users: ['ada', 'bob'] }];
    expect(check(rules, { approvedBy: new Set(['cy']) })).toBeDefined();
    expect(check(rules, { approvedBy: new Set(['bob']) })).toBeUndefined();
  });

  it('answers 409 for an outdated change request under require_up_to_date_change_request', () => {
    const rules = [{ rule: 'require_up_to_date_change_request' }];
    expect(check(rules, { outdated: true })?.kind).toBe('conflict');
    expect(check(rules)).toBeUndefined();
  });

  it('requires a subject and a description when the rules say so', () => {
    expect(check([{ rule: 'require_change_request_subject' }], { subject: '  ' })).toBeDefined();
    expect(
      check([{ rule: 'require_change_request_description' }], { hasDescription: false }),
    ).toBeDefined();
  });

  it('cannot meet agent reviews or custom expressions', () => {
    expect(check([{ rule: 'require_agent_review' }])?.message).toContain('review agent');
    expect(check([{ rule: 'custom', expression: 'true' }])?.message).toContain('custom');
  });

  it('lets the users of allow_bypass merge whatever the other rules say', () => {
    const rules = [
      { rule: 'require_at_least_one_review' },
      { rule: 'allow_bypass', users: ['merger'] },
    ];
    expect(check(rules)).toBeUndefined();
    expect(check(rules, { userId: 'someone-else' })).toBeDefined();
  });
});
