import { defineRule } from '../registry';
import type { SurfaceContext } from './context';

/** A `{contract: <id>}` tool must refer to a published contract. */
export const unknownContractRule = defineRule({
  codes: {
    SURFACE_UNKNOWN_CONTRACT: { severity: 'error', summary: 'A tool refers to a contract that is not among the published contracts.' },
  },
  check: ({ model }: SurfaceContext, report) =>
    model.unknownContracts.map(({ index, contract }) =>
      report('SURFACE_UNKNOWN_CONTRACT', `No published contract \`${contract}\` was found; publish it or fix the id.`, [
        'tools',
        index,
        'contract',
      ]),
    ),
});
