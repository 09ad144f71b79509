import { versionNotIncreasedRule } from '../version-not-increased';
import { approvalRulesRule } from './approval-rules';
import { argConstraintsRule } from './arg-constraints';
import { policyFormatRule } from './format';
import { policyCaseFoldingRule } from './case-folding';
import { historyCallsRule } from './history-calls';
import { historyPathsRule } from './history-paths';
import { limitsRule } from './limits';
import { ruleDecisionsRule } from './rule-decisions';
import { policyTestsRule } from './tests';
import { toolPatternsRule } from './tool-patterns';

/** The policy rules, in the order they run and the docs list their codes. */
export const POLICY_RULES = [
  policyFormatRule,
  ruleDecisionsRule,
  historyCallsRule,
  policyCaseFoldingRule,
  limitsRule,
  historyPathsRule,
  approvalRulesRule,
  argConstraintsRule,
  toolPatternsRule,
  versionNotIncreasedRule('POLICY'),
  policyTestsRule,
] as const;
