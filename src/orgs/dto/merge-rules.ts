import { registerDecorator, ValidationArguments } from 'class-validator';
import type { MergeRule, MergeRulesConfiguration } from '../entities/organization.entity';

/** Rules that name users (GitBook's `MergeRule` variants with `users*`). */
export const MERGE_RULES_WITH_USERS = [
  'require_specific_reviewers',
  'require_one_of_specific_reviewers',
  'allow_bypass',
] as const;
/** Rules that take no argument. */
export const MERGE_RULES_WITHOUT_ARGUMENTS = [
  'require_at_least_one_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
] as const;
export const CUSTOM_MERGE_RULE = 'custom';
export const MERGE_RULE_NAMES = [
  ...MERGE_RULES_WITH_USERS,
  ...MERGE_RULES_WITHOUT_ARGUMENTS,
  CUSTOM_MERGE_RULE,
] as const;

// GitBook declares no bounds on the lists; these keep one organization's row reasonable.
export const MAX_MERGE_RULES = 50;
export const MAX_MERGE_RULE_USERS = 100;
/** GitBook's `Expression`: at most 1024 characters. */
export const MAX_MERGE_RULE_EXPRESSION = 1024;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `inherit`: also accept `{type: "inherit"}` (a space's rules, GitBook's `MergeRulesSpaceConfiguration`). */
export interface MergeRulesOptions {
  inherit?: boolean;
}

/**
 * What is wrong with an organization's `mergeRules` (GitBook's
 * `MergeRulesStandaloneConfiguration`: `{type: "none"}` or `{type: "rules", rules: [MergeRule]}`),
 * each problem naming its field; empty when the value is valid. Whether the users are members
 * is the service's question.
 */
export function mergeRulesProblems(
  value: unknown,
  field = 'mergeRules',
  options: MergeRulesOptions = {},
): string[] {
  if (!isObject(value)) return [`${field} must be an object`];
  if (value.type === 'none') return unexpectedKeys(value, ['type'], field);
  if (options.inherit && value.type === 'inherit') return unexpectedKeys(value, ['type'], field);
  if (value.type !== 'rules') {
    return [`${field}.type must be one of: ${options.inherit ? 'inherit, ' : ''}none, rules`];
  }
  const problems = unexpectedKeys(value, ['type', 'rules'], field);
  if (!Array.isArray(value.rules)) return [...problems, `${field}.rules must be an array`];
  if (value.rules.length > MAX_MERGE_RULES) {
    return [...problems, `${field}.rules must contain at most ${MAX_MERGE_RULES} rules`];
  }
  value.rules.forEach((rule, i) =>
    problems.push(...mergeRuleProblems(rule, `${field}.rules.${i}`)),
  );
  return problems;
}

function mergeRuleProblems(rule: unknown, field: string): string[] {
  if (!isObject(rule)) return [`${field} must be an object`];
  const name = rule.rule;
  if ((MERGE_RULES_WITH_USERS as readonly unknown[]).includes(name)) {
    const problems = unexpectedKeys(rule, ['rule', 'users'], field);
    const users = rule.users;
    if (!Array.isArray(users)) return [...problems, `${field}.users must be an array of user ids`];
    if (users.length > MAX_MERGE_RULE_USERS) {
      problems.push(`${field}.users must contain at most ${MAX_MERGE_RULE_USERS} user ids`);
    }
    users.forEach((user, i) => {
      if (typeof user !== 'string' || user.length === 0 || user.length > 64) {
        problems.push(`${field}.users.${i} must be a user id`);
      }
    });
    return problems;
  }
  if ((MERGE_RULES_WITHOUT_ARGUMENTS as readonly unknown[]).includes(name)) {
    return unexpectedKeys(rule, ['rule'], field);
  }
  if (name === CUSTOM_MERGE_RULE) {
    const problems = unexpectedKeys(rule, ['rule', 'expression'], field);
    if (typeof rule.expression !== 'string') {
      problems.push(`${field}.expression must be a string`);
    } else if (rule.expression.length > MAX_MERGE_RULE_EXPRESSION) {
      problems.push(
        `${field}.expression must be at most ${MAX_MERGE_RULE_EXPRESSION} characters long`,
      );
    }
    return problems;
  }
  return [`${field}.rule must be one of: ${MERGE_RULE_NAMES.join(', ')}`];
}

function unexpectedKeys(value: Json, allowed: string[], field: string): string[] {
  return Object.keys(value)
    .filter((key) => !allowed.includes(key))
    .map((key) => `property ${field}.${key} should not exist`);
}

/** The users named by the rules, each once, in order of appearance. */
export function mergeRuleUsers(configuration: MergeRulesConfiguration): string[] {
  if (configuration.type !== 'rules') return [];
  return [...new Set(configuration.rules.flatMap((rule: MergeRule) => rule.users ?? []))];
}

/** Copies a valid configuration with only the known keys and each rule's users deduplicated. */
export function normaliseMergeRules(
  configuration: MergeRulesConfiguration,
): MergeRulesConfiguration {
  if (configuration.type === 'none') return { type: 'none' };
  return {
    type: 'rules',
    rules: configuration.rules.map((rule) => {
      if (rule.rule === CUSTOM_MERGE_RULE) return { rule: rule.rule, expression: rule.expression };
      if (rule.users) return { rule: rule.rule, users: [...new Set(rule.users)] };
      return { rule: rule.rule };
    }),
  };
}

/** class-validator decorator: the property is a valid `mergeRules` value (an organization's by default). */
export function IsMergeRules(options: MergeRulesOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isMergeRules',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          mergeRulesProblems(value, args.property, options).length === 0,
        defaultMessage: (args?: ValidationArguments) =>
          mergeRulesProblems(args?.value, args?.property, options).slice(0, 5).join('; '),
      },
    });
  };
}
