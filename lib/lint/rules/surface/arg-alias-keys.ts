import type { Diagnostic } from '../../types';
import { declaredProperties } from '../../surface-model';
import { defineRule } from '../registry';
import { annotationPath, checkedTools, type SurfaceContext } from './context';

/** An argument alias must point at a key its tool's parameter schema declares. */
export const argAliasKeysRule = defineRule({
  codes: {
    SURFACE_ARG_ALIAS_UNKNOWN_KEY: {
      severity: 'warning',
      summary: "An argument alias points at a key the tool's schema does not declare.",
    },
  },
  check({ parsed, model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    for (const tool of checkedTools(model)) {
      // Only a schema that lists its properties can say a key is absent.
      const properties = tool.annotations && tool.parameters ? declaredProperties(tool.parameters) : undefined;
      if (!properties) continue;
      for (const [alias, canonical] of tool.annotations?.aliases ?? []) {
        if (!properties.has(canonical)) {
          out.push(
            report(
              'SURFACE_ARG_ALIAS_UNKNOWN_KEY',
              `Alias \`${alias}\` of \`${tool.name}\` points at \`${canonical}\`, which its parameter schema does not declare.`,
              annotationPath(parsed.value, tool, 'arg_aliases', alias),
            ),
          );
        }
      }
    }
    return out;
  },
});
