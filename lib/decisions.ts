// Defined in the SDK, which agents install alone and whose contract format (a test case's
// expected decision) names them; the server reads them from here.
export { DECISIONS, type Decision } from '@toolgate/sdk/core';
