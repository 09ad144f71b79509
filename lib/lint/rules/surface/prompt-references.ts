import type { PromptWord } from '../../prompt-scan';
import { declaredProperties, type DeclaredTool } from '../../surface-model';
import type { Diagnostic, SourceRange } from '../../types';
import { defineRule } from '../registry';
import type { SurfaceContext } from './context';

/**
 * What the system prompt says about the tools (prompt-scan.ts says what is not scanned). Harn
 * leaves the matching open; here it is:
 *
 * - A declared tool name is referenced wherever it appears as a whole word; a name that is a
 *   plain word (letters only, such as `search`) only when written as a call `search(` or as
 *   inline code `` `search` ``. An undeclared name counts only as a call, `name(`, so ordinary
 *   prose never fires.
 * - An argument alias is mentioned as a key (`cmd:` / `cmd=`) inside a call of the tool that
 *   declares it, or as inline code `` `cmd` `` when no tool uses `cmd` as a canonical key.
 */
export const promptReferencesRule = defineRule({
  codes: {
    TOOL_SURFACE_UNKNOWN_PROMPT_TOOL: { severity: 'warning', summary: 'Prompt text references a tool that is not declared.' },
    TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY: {
      severity: 'warning',
      summary: 'Prompt text references a declared tool outside the active policy.',
    },
    TOOL_SURFACE_DEFERRED_TOOL_PROMPT_REFERENCE: {
      severity: 'warning',
      summary: 'Prompt text references a deferred tool while tool_search is inactive.',
    },
    TOOL_SURFACE_DEPRECATED_ARG_ALIAS: {
      severity: 'warning',
      summary: 'Prompt text mentions an argument alias instead of its canonical key.',
    },
  },
  check({ model, prompt }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    const scan = prompt?.scan;
    if (!scan) return out;
    const at = (word: PromptWord): SourceRange => ({
      startLine: word.line,
      startColumn: word.column,
      endLine: word.line,
      endColumn: word.column + word.text.length,
    });

    // Aliases are looked up once per word; an alias that is also some tool's canonical key is
    // too ambiguous to flag outside a call.
    const aliases = new Map<string, { tool: string; canonical: string }>();
    const canonicalKeys = new Set<string>();
    for (const tool of model.tools) {
      if (tool.parameters) for (const key of declaredProperties(tool.parameters) ?? []) canonicalKeys.add(key);
      for (const [alias, canonical] of tool.annotations?.aliases ?? [])
        if (!aliases.has(alias)) aliases.set(alias, { tool: tool.name, canonical });
    }

    const referenced = (tool: DeclaredTool, range: SourceRange) => {
      if (!tool.allowed)
        out.push(
          report.inPrompt(
            'TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY',
            `The prompt mentions \`${tool.name}\`, which is declared but not allowed by \`policy.tools\`.`,
            range,
          ),
        );
      if (tool.deferred && !model.toolSearch) {
        out.push(
          report.inPrompt(
            'TOOL_SURFACE_DEFERRED_TOOL_PROMPT_REFERENCE',
            `The prompt mentions \`${tool.name}\`, which is deferred (\`defer_loading\`) while \`tool_search\` is off, so the model cannot reach it.`,
            range,
          ),
        );
      }
    };

    for (const word of scan.words) {
      const range = at(word);
      const tool = model.byName.get(word.text);
      if (tool) {
        if (word.call || word.code || !isPlainWord(word.text)) referenced(tool, range);
      } else if (word.text.includes('-')) {
        // `run_command-style`: the scanner joins hyphenated words; a declared part still counts.
        let offset = 0;
        for (const part of word.text.split('-')) {
          const partTool = model.byName.get(part);
          if (partTool && !isPlainWord(part))
            referenced(partTool, { ...range, startColumn: word.column + offset, endColumn: word.column + offset + part.length });
          offset += part.length + 1;
        }
      }
      if (!tool && word.call && !(word.text === 'tool_search' && model.toolSearch)) {
        out.push(
          report.inPrompt(
            'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
            `The prompt calls \`${word.text}(…)\`, but no tool of that name is declared.`,
            range,
          ),
        );
      }

      const caller = word.key && word.enclosingCall >= 0 ? model.byName.get(scan.words[word.enclosingCall]?.text ?? '') : undefined;
      const canonical = caller?.annotations?.aliases.get(word.text);
      if (caller && canonical !== undefined) {
        out.push(
          report.inPrompt(
            'TOOL_SURFACE_DEPRECATED_ARG_ALIAS',
            `\`${word.text}\` is a deprecated alias of \`${canonical}\` for \`${caller.name}\`; write \`${canonical}\`.`,
            range,
          ),
        );
      } else if (word.code && !tool && !canonicalKeys.has(word.text)) {
        const alias = aliases.get(word.text);
        if (alias)
          out.push(
            report.inPrompt(
              'TOOL_SURFACE_DEPRECATED_ARG_ALIAS',
              `\`${word.text}\` is a deprecated alias of \`${alias.canonical}\` for \`${alias.tool}\`; write \`${alias.canonical}\`.`,
              range,
            ),
          );
      }
    }
    return out;
  },
});

/** Letters only (`search`, `Lookup`): too common in prose to count without call or code form. */
function isPlainWord(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}
