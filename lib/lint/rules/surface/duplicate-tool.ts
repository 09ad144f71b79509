import { defineRule } from '../registry';
import type { SurfaceContext } from './context';

/** Tool names are unique: the first declaration counts, later ones are reported. */
export const duplicateToolRule = defineRule({
  codes: {
    SURFACE_DUPLICATE_TOOL: { severity: 'error', summary: 'Two tools have the same name (inline `name` or contract id).' },
  },
  check: ({ model }: SurfaceContext, report) =>
    model.duplicates.map(({ index, name, origin, first }) =>
      report('SURFACE_DUPLICATE_TOOL', `\`${name}\` is declared twice (first as tools[${first}]); tool names must be unique.`, [
        'tools',
        index,
        origin === 'inline' ? 'name' : 'contract',
      ]),
    ),
});
