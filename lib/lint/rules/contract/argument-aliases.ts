import { schemaDeclaresPath } from '../../../contracts/schema-guards';
import { hasOwn, isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import { quote } from '../report';
import type { ContractContext } from './context';

/** `argument_aliases`: deprecated names callers should move off, and aliases that cannot work. */
export const argumentAliasesRule = defineRule({
  codes: {
    CONTRACT_DEPRECATED_ARG_ALIAS: {
      severity: 'warning',
      summary: 'An argument alias is declared: it is deprecated, and callers should move to the canonical key.',
    },
    CONTRACT_ALIAS_TARGET_UNKNOWN: {
      severity: 'error',
      summary: 'An argument alias maps to a key that is not in `input.properties`.',
    },
    CONTRACT_ALIAS_SHADOWS_PROPERTY: {
      severity: 'error',
      summary: 'An argument alias is itself a property of the input schema, so a call could not tell which one it sent.',
    },
  },
  check({ document }: ContractContext, report) {
    const out: Diagnostic[] = [];
    const aliases = ownValue(document, 'argument_aliases');
    if (!isPlainObject(aliases)) return out;
    const input = ownValue(document, 'input');
    const properties = ownValue(input, 'properties');
    for (const alias of Object.keys(aliases).slice(0, 100)) {
      const canonical = aliases[alias];
      if (typeof canonical !== 'string') continue;
      out.push(
        report(
          'CONTRACT_DEPRECATED_ARG_ALIAS',
          `${quote(alias)} is a deprecated alias of ${quote(canonical)}: callers should send ${quote(canonical)} instead.`,
          ['argument_aliases', alias],
          'key',
        ),
      );
      if (!isPlainObject(input) || !schemaDeclaresPath(input, canonical)) {
        out.push(
          report(
            'CONTRACT_ALIAS_TARGET_UNKNOWN',
            `Alias ${quote(alias)} maps to ${quote(canonical)}, which is not in \`input.properties\`.`,
            ['argument_aliases', alias],
          ),
        );
      }
      if (hasOwn(properties, alias)) {
        out.push(
          report(
            'CONTRACT_ALIAS_SHADOWS_PROPERTY',
            `Alias ${quote(alias)} is also a property of the input schema; an alias must be a name the schema no longer declares.`,
            ['argument_aliases', alias],
            'key',
          ),
        );
      }
    }
    return out;
  },
});
