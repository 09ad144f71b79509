'use client';

import { useState } from 'react';
import type { ApprovalQueueItem } from '@/lib/approvals/approval-queue-types';
import { escapeHiddenCharacters, summarizeHiddenCharacters } from '@/lib/approvals/reveal-hidden-characters';
import { sendDecision, type DecisionBody, type DecisionFailure } from './approvals-api';
import { HiddenCharactersWarning } from './revealed-text';

/**
 * The actions on a pending approval, offered as the server's `viewer` rights say: approve
 * (optionally with edited arguments), deny, escalate. The server checks everything again.
 */
export function DecisionForm({ item, onDecided }: { item: ApprovalQueueItem; onDecided: () => void }) {
  const [comment, setComment] = useState('');
  const [editing, setEditing] = useState(false);
  const [argumentsText, setArgumentsText] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<DecisionFailure | null>(null);
  const { viewer } = item;
  const hiddenInComment = summarizeHiddenCharacters(comment);
  const hiddenInEdit = editing ? summarizeHiddenCharacters(argumentsText) : { count: 0, kinds: [] };

  async function decide(body: DecisionBody) {
    setBusy(true);
    setFailure(null);
    const result = await sendDecision(item.id, { ...body, ...(comment.trim() ? { comment: comment.trim() } : {}) });
    setBusy(false);
    if (!result.ok) {
      setFailure(result.failure);
      return;
    }
    setComment('');
    setEditing(false);
    onDecided();
  }

  function approveEdited() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(argumentsText);
    } catch (error) {
      setFailure({
        status: 0,
        code: 'invalid_json',
        message: `The edited arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        issues: [],
      });
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      setFailure({ status: 0, code: 'invalid_json', message: 'The edited arguments must be a JSON object.', issues: [] });
      return;
    }
    void decide({ decision: 'approve', arguments: parsed as Record<string, unknown> });
  }

  return (
    <div className="mt-4 space-y-2 border-t border-zinc-100 pt-3">
      <label className="block text-sm font-medium" htmlFor={`comment-${item.id}`}>
        Comment (the agent reads it{viewer.can_escalate ? '; on an escalation, the next level does too' : ''})
      </label>
      <textarea
        id={`comment-${item.id}`}
        data-testid="decision-comment"
        className="input"
        rows={2}
        maxLength={2000}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
      />
      <HiddenCharactersWarning count={hiddenInComment.count} kinds={hiddenInComment.kinds} />
      {editing && (
        <>
          <label className="block text-sm font-medium" htmlFor={`args-${item.id}`}>
            Edited arguments (JSON; a field left as “[REDACTED]” keeps the agent’s value; hidden characters appear as{' '}
            <span className="font-mono">\uXXXX</span> escapes)
          </label>
          <textarea
            id={`args-${item.id}`}
            data-testid="edit-arguments"
            className="input font-mono text-xs"
            rows={10}
            dir="ltr"
            value={argumentsText}
            onChange={(e) => setArgumentsText(e.target.value)}
          />
          <HiddenCharactersWarning count={hiddenInEdit.count} kinds={hiddenInEdit.kinds} />
        </>
      )}
      {failure && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p>{failure.message}</p>
          {failure.issues.length > 0 && (
            <ul className="mt-1 list-disc pl-5 text-xs">
              {failure.issues.map((issue, i) => (
                <li key={i}>
                  <span className="font-mono">{issue.code}</span> at <span className="font-mono">{issue.path}</span>: {issue.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        {editing ? (
          <>
            <button type="button" data-testid="approve-edited-button" className="btn-primary" disabled={busy} onClick={approveEdited}>
              Approve edited call
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => setEditing(false)}>
              Cancel edit
            </button>
          </>
        ) : (
          <>
            {viewer.can_approve && (
              <button
                type="button"
                data-testid="approve-button"
                className="btn-primary"
                disabled={busy}
                onClick={() => void decide({ decision: 'approve' })}
              >
                Approve
              </button>
            )}
            <button
              type="button"
              data-testid="deny-button"
              className="btn-danger"
              disabled={busy}
              onClick={() => void decide({ decision: 'deny' })}
            >
              Deny
            </button>
            {viewer.can_approve && !item.arguments_omitted && item.arguments && (
              <button
                type="button"
                data-testid="edit-button"
                className="btn-secondary"
                disabled={busy}
                onClick={() => {
                  // Escaped so the agent's hidden characters show in the text box and parse back unchanged.
                  setArgumentsText(escapeHiddenCharacters(JSON.stringify(item.arguments, null, 2)));
                  setEditing(true);
                }}
              >
                Edit arguments…
              </button>
            )}
            {viewer.can_escalate && (
              <button
                type="button"
                data-testid="escalate-button"
                className="btn-secondary"
                disabled={busy}
                onClick={() => void decide({ decision: 'escalate' })}
              >
                Escalate to admins
              </button>
            )}
          </>
        )}
      </div>
    </div>
  );
}
