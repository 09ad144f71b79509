import { approvalPatternsRule } from './approval-patterns';
import { argAliasKeysRule } from './arg-alias-keys';
import { argConstraintPatternRule } from './arg-constraint-pattern';
import { argConstraintTargetsRule } from './arg-constraint-targets';
import { duplicateToolRule } from './duplicate-tool';
import { surfaceFormatRule } from './format';
import { policyPatternsRule } from './policy-patterns';
import { promptReferencesRule } from './prompt-references';
import { resultReadersRule } from './result-readers';
import { sideEffectCeilingRule } from './side-effect-ceiling';
import { toolMetadataRule } from './tool-metadata';
import { uncheckedPromptRule } from './unchecked-prompt';
import { unknownContractRule } from './unknown-contract';

/**
 * The tool surface rules, in the order they run and the docs list their codes. Two prefixes, on
 * purpose: `TOOL_SURFACE_*` codes are Harn's (its `tool_surface_validate`; their names and
 * severities are requirements), listed first in Harn's order; `SURFACE_*` codes are Toolgate's
 * own checks of the same document. Codes are never renamed: agents and stored diagnostics
 * depend on them.
 */
export const SURFACE_RULES = [
  toolMetadataRule,
  resultReadersRule,
  argConstraintTargetsRule,
  approvalPatternsRule,
  promptReferencesRule,
  sideEffectCeilingRule,
  surfaceFormatRule,
  unknownContractRule,
  duplicateToolRule,
  argAliasKeysRule,
  argConstraintPatternRule,
  policyPatternsRule,
  uncheckedPromptRule,
] as const;
