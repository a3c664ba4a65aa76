import type { MergeRule, MergeRulesConfiguration } from '../../orgs/entities/organization.entity';
import { DomainError } from '../../platform/errors/domain-error';
import type { SpaceMergeRules } from '../../spaces/entities/space.entity';

/** What the merge rules look at, gathered when a change request is merged. */
export interface MergeFacts {
  /** Who merges. */
  userId: string;
  subject: string;
  hasDescription: boolean;
  /** The primary moved past the change request's merge base. */
  outdated: boolean;
  /** Reviewers whose latest review, on the change request's current revision, approves it. */
  approvedBy: ReadonlySet<string>;
  /** Reviewers whose latest review (on any revision) asks for changes. */
  changesRequestedBy: ReadonlySet<string>;
  /** Users asked to review. */
  requestedReviewers: readonly string[];
}

/** The rules that apply to a space: its own, or its organization's when it inherits. */
export function effectiveMergeRules(
  space: SpaceMergeRules,
  organization: MergeRulesConfiguration,
): readonly MergeRule[] {
  const rules = space.type === 'inherit' ? organization : space;
  return rules.type === 'rules' ? (rules.rules as MergeRule[]) : [];
}

const unmet = (rule: string, detail: string, kind: 'forbidden' | 'conflict' = 'forbidden') =>
  new DomainError(kind, 'MergeRuleNotMet', `Merge rule ${rule} is not met: ${detail}`);

/**
 * The first rule the change request does not meet, as the error to answer (403; 409 for
 * `require_up_to_date_change_request`, which updating from the primary fixes), or undefined
 * when it may be merged. A user listed by an `allow_bypass` rule bypasses every rule.
 *
 * Bindery has no review agent and does not evaluate custom expressions: a space with
 * `require_agent_review` or a `custom` rule cannot merge until the rule is removed.
 */
export function unmetMergeRule(
  rules: readonly MergeRule[],
  facts: MergeFacts,
): DomainError | undefined {
  const bypass = rules.some(
    (rule) => rule.rule === 'allow_bypass' && (rule.users ?? []).includes(facts.userId),
  );
  if (bypass) return undefined;
  for (const rule of rules) {
    const users = rule.users ?? [];
    switch (rule.rule) {
      case 'require_at_least_one_review':
        if (facts.approvedBy.size === 0) {
          return unmet(
            rule.rule,
            'the change request needs an approving review of its current revision.',
          );
        }
        break;
      case 'require_all_reviews_approved': {
        const pending = facts.requestedReviewers.filter((user) => !facts.approvedBy.has(user));
        if (facts.changesRequestedBy.size > 0 || pending.length > 0) {
          return unmet(
            rule.rule,
            'every requested reviewer must approve, and no review may ask for changes ' +
              `(waiting for ${[...new Set([...pending, ...facts.changesRequestedBy])].join(', ')}).`,
          );
        }
        break;
      }
      case 'require_specific_reviewers': {
        const missing = users.filter((user) => !facts.approvedBy.has(user));
        if (missing.length > 0) {
          return unmet(rule.rule, `waiting for approval by ${missing.join(', ')}.`);
        }
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!users.some((user) => facts.approvedBy.has(user))) {
          return unmet(rule.rule, `one of ${users.join(', ')} must approve.`);
        }
        break;
      case 'require_up_to_date_change_request':
        if (facts.outdated) {
          return unmet(
            rule.rule,
            'the primary content moved since the change request was last updated; update it first.',
            'conflict',
          );
        }
        break;
      case 'require_change_request_subject':
        if (facts.subject.trim() === '') {
          return unmet(rule.rule, 'the change request needs a subject.');
        }
        break;
      case 'require_change_request_description':
        if (!facts.hasDescription) {
          return unmet(rule.rule, 'the change request needs a description.');
        }
        break;
      case 'require_agent_review':
        return unmet(rule.rule, 'Bindery has no review agent to approve the change request.');
      case 'custom':
        return unmet(rule.rule, 'custom merge rule expressions are not evaluated by Bindery.');
      default:
        break;
    }
  }
  return undefined;
}
