'use client';

import { useId, useState } from 'react';
import { SIDE_EFFECT_LEVELS } from '@/lib/contracts/contract-schema';
import type { TryAnswer } from '@/lib/policies/try-policy';
import { isJsonObject } from '@/lib/json';
import { describeFailure, type ApiFailure } from './studio-api';
import { TryRequestResult } from './try-request-result';
import { pageTenantHeaders } from '@/components/page-tenant';

/**
 * The policy playground ("Try a request"): a call, its context and a declared past, decided by
 * the draft in the editor (saved or not) through POST /api/v1/policies/try. Nothing is
 * recorded and no real history is read, so an author can see a limit fill up before publishing.
 */

type TryState =
  | { phase: 'idle' }
  | { phase: 'running' }
  | { phase: 'done'; answer: TryAnswer }
  | { phase: 'unreadable'; message: string }
  | { phase: 'failed'; failure: ApiFailure };

type Field = 'tool' | 'arguments' | 'context' | 'history';
type DraftRead = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

const HISTORY_EXAMPLE = `[
  {"tool": "orders.lookup", "seconds_ago": 600},
  {"tool": "orders.lookup", "seconds_ago": 60, "context": {"user_id": "u_2"}}
]`;

async function postTry(body: Record<string, unknown>): Promise<{ ok: true; answer: TryAnswer } | { ok: false; failure: ApiFailure }> {
  let response: Response;
  try {
    response = await fetch('/api/v1/policies/try', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...pageTenantHeaders() },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const message = `Could not reach Toolgate: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, failure: { status: 0, code: 'network', message, diagnostics: [], problems: [] } };
  }
  const parsed: unknown = await response.json().catch(() => undefined);
  if (!response.ok) return { ok: false, failure: describeFailure(response.status, parsed) };
  return { ok: true, answer: parsed as TryAnswer };
}

/** Reads a JSON text field; empty means the field's default. */
function readJson(
  text: string,
  want: 'object' | 'array',
  fallback: unknown,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: fallback };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (want === 'object' && !isJsonObject(value)) return { ok: false, message: 'Write a JSON object, e.g. {"order_id": "ord_1"}.' };
  if (want === 'array' && !Array.isArray(value)) return { ok: false, message: 'Write a JSON list of past calls, e.g. [] for none.' };
  return { ok: true, value };
}

function TextField(props: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  placeholder: string;
  rows: number;
  testId: string;
}) {
  const { id, label, hint, value, onChange, error, placeholder, rows, testId } = props;
  return (
    <div className="text-sm">
      <label htmlFor={id} className="mb-1 block font-medium">
        {label}
      </label>
      <textarea
        id={id}
        className={`input font-mono text-xs ${error ? 'border-red-400' : ''}`}
        rows={rows}
        spellCheck={false}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        data-testid={testId}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500">
        {hint}
      </p>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function TryRequestPanel({ readDraft }: { readDraft(): DraftRead }) {
  const id = useId();
  const [tool, setTool] = useState('');
  const [sideEffect, setSideEffect] = useState('');
  const [argsText, setArgsText] = useState('{}');
  const [contextText, setContextText] = useState('{}');
  const [historyText, setHistoryText] = useState('[]');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [state, setState] = useState<TryState>({ phase: 'idle' });

  async function run() {
    const args = readJson(argsText, 'object', {});
    const context = readJson(contextText, 'object', {});
    const history = readJson(historyText, 'array', []);
    const found: Partial<Record<Field, string>> = {};
    if (tool.trim() === '') found.tool = 'Name the tool to call, e.g. orders.lookup.';
    if (!args.ok) found.arguments = args.message;
    if (!context.ok) found.context = context.message;
    if (!history.ok) found.history = history.message;
    setErrors(found);
    if (Object.keys(found).length > 0 || !args.ok || !context.ok || !history.ok) return;
    const draft = readDraft();
    if (!draft.ok) {
      setState({ phase: 'unreadable', message: draft.message });
      return;
    }
    setState({ phase: 'running' });
    const answer = await postTry({
      policy: draft.value,
      tool: tool.trim(),
      arguments: args.value,
      context: context.value,
      history: history.value,
      ...(sideEffect ? { side_effect_level: sideEffect } : {}),
    });
    setState(answer.ok ? { phase: 'done', answer: answer.answer } : { phase: 'failed', failure: answer.failure });
  }

  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid="try-panel"
      aria-busy={state.phase === 'running'}
      className="card @container shrink-0"
    >
      <header className="border-b border-zinc-200 px-4 py-2">
        <h2 id={`${id}-title`} className="text-sm font-semibold">
          Try a request
        </h2>
        <p className="text-xs text-zinc-500">
          Decide one call with the draft in the editor, alone, as if it were published; the history is the one you declare here. Nothing is
          saved or recorded.
        </p>
      </header>
      <form
        className="grid grid-cols-1 gap-3 px-4 py-3 @xl:grid-cols-2"
        aria-label="Try a request"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <div className="text-sm">
          <label htmlFor={`${id}-tool`} className="mb-1 block font-medium">
            Tool
          </label>
          <input
            id={`${id}-tool`}
            className={`input font-mono ${errors.tool ? 'border-red-400' : ''}`}
            value={tool}
            maxLength={128}
            placeholder="orders.lookup"
            onChange={(e) => setTool(e.target.value)}
            aria-invalid={errors.tool ? true : undefined}
            aria-describedby={errors.tool ? `${id}-tool-error` : undefined}
            data-testid="try-tool"
          />
          {errors.tool && (
            <p id={`${id}-tool-error`} className="mt-1 text-xs text-red-700" data-testid="try-tool-error">
              {errors.tool}
            </p>
          )}
        </div>
        <div className="text-sm">
          <label htmlFor={`${id}-level`} className="mb-1 block font-medium">
            Side-effect level
          </label>
          <select
            id={`${id}-level`}
            className="input"
            value={sideEffect}
            onChange={(e) => setSideEffect(e.target.value)}
            aria-describedby={`${id}-level-hint`}
          >
            <option value="">From the published contract, else none</option>
            {SIDE_EFFECT_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
          <p id={`${id}-level-hint`} className="mt-1 text-xs text-zinc-500">
            Used only when the tenant has no published contract for the tool.
          </p>
        </div>
        <TextField
          id={`${id}-arguments`}
          label="Arguments (JSON)"
          hint="The arguments the agent proposes."
          value={argsText}
          onChange={setArgsText}
          error={errors.arguments}
          placeholder='{"order_id": "ord_abc123"}'
          rows={4}
          testId="try-arguments"
        />
        <TextField
          id={`${id}-context`}
          label="Context (JSON)"
          hint="user_id, session_id, roles, tenant_id and state, as validate/pre receives them."
          value={contextText}
          onChange={setContextText}
          error={errors.context}
          placeholder='{"user_id": "u_1", "session_id": "s_1", "roles": ["support"]}'
          rows={4}
          testId="try-context"
        />
        <div className="@xl:col-span-2">
          <TextField
            id={`${id}-history`}
            label="Simulated history (JSON list)"
            hint="Calls made before this one: tool and seconds_ago (up to 31 days), optionally arguments and context (default: this call's), decision (default allow; refused calls never count for limits). At most 1,000."
            value={historyText}
            onChange={setHistoryText}
            error={errors.history}
            placeholder={HISTORY_EXAMPLE}
            rows={5}
            testId="try-history"
          />
        </div>
        <div className="@xl:col-span-2">
          <button type="submit" className="btn-primary" disabled={state.phase === 'running'} data-testid="try-button">
            {state.phase === 'running' ? 'Trying…' : 'Try'}
          </button>
        </div>
      </form>
      <div className="border-t border-zinc-200 px-4 py-3 text-sm" aria-live="polite">
        {state.phase === 'idle' && (
          <p className="text-zinc-600" data-testid="try-empty">
            No request tried yet. Name a tool, then Try: the decision, the deciding rule, each limit and every step show here.
          </p>
        )}
        {state.phase === 'running' && (
          <p role="status" className="text-zinc-600">
            Deciding the call with this draft…
          </p>
        )}
        {state.phase === 'unreadable' && (
          <p role="alert" className="text-red-800" data-testid="try-error">
            The draft cannot be tried: {state.message} The problems panel shows where.
          </p>
        )}
        {state.phase === 'failed' && (
          <div role="alert" className="text-red-800" data-testid="try-error">
            <p>
              {state.failure.code === 'policy_invalid' ? 'The draft does not compile.' : 'The request was refused.'} {state.failure.message}
            </p>
            {state.failure.problems.length > 0 && (
              <ul className="mt-1 list-disc pl-5">
                {state.failure.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {state.phase === 'done' && <TryRequestResult answer={state.answer} />}
      </div>
    </section>
  );
}
