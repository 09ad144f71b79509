/**
 * `@toolgate/sdk/core`: what agent and server must say alike (the contract format, the error
 * codes, the words of an `llm_message`, the decisions, the wire types). Toolgate's server imports
 * these from here, so the two cannot drift apart; agent code rarely needs them directly.
 */
export * from './contract-schema.ts';
export * from './contract-test-schema.ts';
export * from './decisions.ts';
export * from './describe-value.ts';
export * from './error-codes.ts';
export * from './json.ts';
export * from './json-path.ts';
export * from './llm-message.ts';
export type * from './wire-types.ts';
// Both say what a problem looks like; the server's own (with its code union) is the one meant here.
export type { ValidationIssue } from './error-codes.ts';
