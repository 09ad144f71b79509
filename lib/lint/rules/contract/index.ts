import { versionNotIncreasedRule } from '../version-not-increased';
import { annotationsRule } from './annotations';
import { argumentAliasesRule } from './argument-aliases';
import { compilerRule } from './compiler';
import { conditionArgumentsRule } from './condition-arguments';
import { contractCaseFoldingRule } from './case-folding';
import { contractTestsRule } from './tests';

/** The contract rules, in the order they run and the docs list their codes. */
export const CONTRACT_RULES = [
  compilerRule,
  conditionArgumentsRule,
  contractCaseFoldingRule,
  annotationsRule,
  argumentAliasesRule,
  versionNotIncreasedRule('CONTRACT'),
  contractTestsRule,
] as const;
