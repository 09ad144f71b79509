'use client';

import Link from 'next/link';
import { useState } from 'react';
import { pageTenantHeaders } from './page-tenant';

interface ImportedDraft {
  source: string;
  name: string;
  document: { id?: unknown; annotations?: { side_effect_level?: unknown } };
  notes: { path: string; message: string }[];
}
interface SavedDraft {
  tool: string;
  version?: string;
  error?: { code: string; message: string };
}
interface ImportAnswer {
  contracts: ImportedDraft[];
  problems: { code: string; path: string; message: string }[];
  saved: SavedDraft[];
}

/**
 * Paste MCP `tools/list` output or OpenAI / Anthropic tool definitions, preview the drafts
 * (with what to review), then save them. Calls POST /api/v1/contracts/import.
 */
export function ImportContractsForm() {
  const [text, setText] = useState('');
  const [namespace, setNamespace] = useState('');
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function send(save: boolean) {
    setPending(true);
    setError(null);
    try {
      const response = await fetch('/api/v1/contracts/import', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...pageTenantHeaders() },
        body: JSON.stringify({ text, ...(namespace.trim() ? { namespace: namespace.trim() } : {}), save }),
      });
      const body = (await response.json().catch(() => null)) as (ImportAnswer & { error?: { message?: string } }) | null;
      if (!response.ok || !body) setError(body?.error?.message ?? `The server answered ${response.status}.`);
      else setAnswer(body);
    } catch (e) {
      setError(`Could not reach Toolgate: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <div className="card space-y-3 p-5">
        <label htmlFor="import-text" className="block text-sm font-medium">
          Tool definitions (JSON)
        </label>
        <textarea
          id="import-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={12}
          spellCheck={false}
          placeholder='{"tools": [{"name": "get_weather", "description": "…", "inputSchema": {"type": "object", …}, "annotations": {"readOnlyHint": true}}]}'
          className="input w-full font-mono text-xs"
        />
        <div className="max-w-sm space-y-1">
          <label htmlFor="import-namespace" className="block text-sm font-medium">
            Namespace for contract ids
          </label>
          <input
            id="import-namespace"
            value={namespace}
            onChange={(e) => setNamespace(e.target.value)}
            placeholder="e.g. weather (default: mcp, openai or anthropic)"
            className="input"
          />
        </div>
        <div className="flex gap-2">
          <button type="button" className="btn-secondary" disabled={pending || text.trim() === ''} onClick={() => void send(false)}>
            Preview drafts
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={pending || !answer || answer.contracts.length === 0}
            onClick={() => void send(true)}
          >
            Save all as drafts
          </button>
        </div>
        {pending && <p className="text-sm text-zinc-500">Working…</p>}
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {answer && (
        <section aria-label="Import result" className="card p-5 text-sm">
          {answer.problems.length > 0 && (
            <ul className="mb-3 space-y-1 text-amber-800">
              {answer.problems.map((p, i) => (
                <li key={i}>
                  <span className="font-mono">{p.code}</span> {p.path}: {p.message}
                </li>
              ))}
            </ul>
          )}
          {answer.contracts.length === 0 ? (
            <p>No tools were found in the text.</p>
          ) : (
            <ul className="space-y-3">
              {answer.contracts.map((c, i) => {
                const saved = answer.saved.find((s) => s.tool === String(c.document.id));
                return (
                  <li key={i} data-testid="imported-draft">
                    <p>
                      <span className="font-mono font-semibold">{String(c.document.id)}</span>{' '}
                      <span className="text-zinc-500">
                        from {c.source} tool “{c.name}”, side effect {String(c.document.annotations?.side_effect_level)}
                      </span>
                      {saved && !saved.error && (
                        <>
                          {' '}
                          ·{' '}
                          <Link className="font-medium text-brand hover:underline" href={`/contracts/${encodeURIComponent(saved.tool)}`}>
                            saved as a draft
                          </Link>
                        </>
                      )}
                      {saved?.error && <span className="text-red-700"> · not saved: {saved.error.message}</span>}
                    </p>
                    {c.notes.length > 0 && (
                      <ul className="mt-1 list-disc pl-5 text-zinc-600">
                        {c.notes.map((n, j) => (
                          <li key={j}>
                            <span className="font-mono text-xs">{n.path}</span> {n.message}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
