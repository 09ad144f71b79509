import { conformanceDiagnostics } from '../../conformance';
import { defineRule } from '../registry';
import type { PolicyContext } from './context';

/** Conformance to the policy format. */
export const policyFormatRule = defineRule({
  codes: {
    POLICY_SCHEMA_INVALID: { severity: 'error', summary: 'The document does not match the policy format.' },
  },
  check: ({ parsed, conformance }: PolicyContext) => policyFormatFindings(parsed, conformance),
});

/** Conformance alone: all there is to say about a document that is not an object. */
export function policyFormatFindings(parsed: PolicyContext['parsed'], conformance: PolicyContext['conformance']) {
  return conformance.success ? [] : conformanceDiagnostics(conformance.error.issues, parsed.value, parsed.locate, 'POLICY_SCHEMA_INVALID');
}
