import { describe, expect, it } from 'vitest';
import { approverRights, requesterRelation, viewerApproverId, type ApprovalViewer } from './approver-rights';

const now = new Date('2026-11-23T12:00:00Z');
const approval = (over: Partial<Parameters<typeof approverRights>[0]['approval']> = {}) => ({
  status: 'pending',
  expiresAt: new Date(now.getTime() + 60_000),
  approverRoles: ['approver'],
  apiKeyId: 'agent-key',
  userId: 'end-user',
  requestingKeyCreatorId: 'key-owner',
  votes: [],
  approvals: 0,
  approversRequired: 1,
  ...over,
});
const session = (userId: string, role: 'viewer' | 'author' | 'approver' | 'admin'): ApprovalViewer => ({ kind: 'session', userId, role });
const rights = (viewer: ApprovalViewer, over: Partial<Parameters<typeof approverRights>[0]['approval']> = {}) =>
  approverRights({ approval: approval(over), viewer, now });

describe('approverRights', () => {
  it('lets an approver with a named role do everything', () => {
    expect(rights(session('u1', 'approver'))).toEqual({
      can_decide: true,
      can_approve: true,
      can_escalate: true,
      cannot_decide_reason: null,
    });
  });

  it('says why nobody can act on a settled or expired approval', () => {
    expect(rights(session('u1', 'admin'), { status: 'approved' })).toMatchObject({
      can_decide: false,
      can_approve: false,
      cannot_decide_reason: { code: 'decided', message: 'This approval is already approved.' },
    });
    expect(rights(session('u1', 'admin'), { status: 'expired' }).cannot_decide_reason?.code).toBe('expired');
    // Past its deadline but not swept yet: expired all the same.
    expect(rights(session('u1', 'admin'), { expiresAt: now }).cannot_decide_reason?.code).toBe('expired');
  });

  it('refuses roles that cannot decide at all, and roles the approval does not name', () => {
    expect(rights(session('u1', 'viewer'))).toMatchObject({
      can_decide: false,
      cannot_decide_reason: { code: 'no_permission', message: 'Deciding approvals needs the approver or admin role; your role is viewer.' },
    });
    expect(rights(session('u1', 'author')).cannot_decide_reason?.code).toBe('no_permission');
    expect(rights(session('u1', 'approver'), { approverRoles: ['admin'] })).toMatchObject({
      can_decide: false,
      can_approve: false,
      can_escalate: false,
      cannot_decide_reason: { code: 'role', message: 'Deciding this call needs one of the roles: admin; your role is approver.' },
    });
    // Admins decide anything; an approval naming no role is open to any approver.
    expect(rights(session('u1', 'admin'), { approverRoles: ['finance'] }).can_approve).toBe(true);
    expect(rights(session('u1', 'approver'), { approverRoles: [] }).can_approve).toBe(true);
  });

  it('lets the requester deny or escalate but not approve, naming how they are the requester', () => {
    const asEndUser = rights(session('end-user', 'approver'));
    expect(asEndUser).toMatchObject({
      can_decide: true,
      can_approve: false,
      can_escalate: true,
      cannot_decide_reason: { code: 'requester_end_user' },
    });
    expect(asEndUser.cannot_decide_reason?.message).toBe(
      'You cannot approve this call: it acts for you (context.user_id). Another approver must approve it. You may still deny it or escalate it.',
    );
    expect(rights(session('key-owner', 'admin'), { approverRoles: ['admin'] })).toMatchObject({
      can_approve: false,
      can_escalate: false,
      cannot_decide_reason: { code: 'requester_key_creator', message: expect.stringContaining('You may still deny it.') },
    });
    expect(rights({ kind: 'api_key', apiKeyId: 'agent-key', createdById: null }).cannot_decide_reason?.code).toBe('requester_key');
    expect(rights({ kind: 'api_key', apiKeyId: 'other-key', createdById: 'key-owner' }).cannot_decide_reason?.code).toBe(
      'requester_key_creator',
    );
    expect(rights({ kind: 'api_key', apiKeyId: 'other-key', createdById: null }).can_approve).toBe(true);
  });

  it('counts a person once: an earlier approve vote (theirs, or their key’s) blocks approving again', () => {
    const votes = [{ approverId: 'user:u1', decision: 'approve' }];
    expect(rights(session('u1', 'approver'), { votes, approvals: 1, approversRequired: 2 })).toMatchObject({
      can_decide: true,
      can_approve: false,
      cannot_decide_reason: { code: 'already_voted', message: expect.stringContaining('It waits for 1 more approval.') },
    });
    expect(
      rights({ kind: 'api_key', apiKeyId: 'k2', createdById: 'u1' }, { votes, approvals: 1, approversRequired: 2 }).cannot_decide_reason
        ?.code,
    ).toBe('already_voted');
    expect(rights(session('u2', 'approver'), { votes, approvals: 1, approversRequired: 2 }).can_approve).toBe(true);
  });
});

describe('requesterRelation and viewerApproverId', () => {
  it('finds no relation for a key nobody created, unless it is the requesting key', () => {
    expect(requesterRelation({ apiKeyId: 'a', userId: 'u', requestingKeyCreatorId: 'c' }, { apiKeyId: 'b', userId: null })).toBeNull();
    expect(requesterRelation({ apiKeyId: 'a', userId: 'u', requestingKeyCreatorId: 'c' }, { apiKeyId: 'a', userId: null })).toBe(
      'requester_key',
    );
    expect(requesterRelation({ apiKeyId: null, userId: null, requestingKeyCreatorId: null }, { apiKeyId: null, userId: 'x' })).toBeNull();
  });

  it('names a key by its creator, else by itself', () => {
    expect(viewerApproverId({ kind: 'api_key', apiKeyId: 'k', createdById: 'u' })).toBe('user:u');
    expect(viewerApproverId({ kind: 'api_key', apiKeyId: 'k', createdById: null })).toBe('api_key:k');
    expect(viewerApproverId(session('u', 'viewer'))).toBe('user:u');
  });
});
