'use server';

import { revalidatePath } from 'next/cache';
import { AppError, NotFoundError } from '@/lib/errors';
import { createApiKey, revokeApiKey } from '@/lib/auth/api-keys';
import { API_KEY_SCOPES, type ApiKeyScope } from '@/lib/auth/api-key-scopes';
import { DISPLAY_NAME_PROBLEM, hasHiddenCharacters } from '@/lib/members/display-name';
import { authorizeAction } from '../authorize-action';

export type CreateKeyState =
  | { status: 'idle' }
  | { status: 'error'; message: string }
  // The only place the full key ever leaves the server; it lives in this response alone.
  | { status: 'created'; name: string; key: string };

export type RevokeKeyState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'revoked' };

const authorize = (form: FormData) =>
  authorizeAction(form, 'manage_keys', (role) => `Only admins can manage API keys; your role is ${role}.`);

export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const auth = await authorize(form);
  if ('message' in auth) return { status: 'error', message: auth.message };
  const name = String(form.get('name') ?? '').trim();
  if (name.length === 0 || name.length > 100) return { status: 'error', message: 'Give the key a name of 1 to 100 characters.' };
  if (hasHiddenCharacters(name)) return { status: 'error', message: `The name ${DISPLAY_NAME_PROBLEM}.` };
  const requested = form.getAll('scopes').map(String);
  const scopes = API_KEY_SCOPES.filter((scope): scope is ApiKeyScope => requested.includes(scope));
  if (scopes.length === 0 || scopes.length !== new Set(requested).size)
    return { status: 'error', message: 'Choose at least one scope: validate, author or admin.' };
  const lifetime = String(form.get('expires_in_days') ?? '');
  const expiresInDays = lifetime === '' ? undefined : Number(lifetime);
  let key: string;
  try {
    ({ key } = await createApiKey({ tenantId: auth.member.tenant.id, name, scopes, createdById: auth.member.user.id, expiresInDays }));
  } catch (error) {
    if (error instanceof AppError) return { status: 'error', message: error.message };
    throw error;
  }
  revalidatePath('/api-keys');
  return { status: 'created', name, key };
}

export async function revokeKeyAction(_previous: RevokeKeyState, form: FormData): Promise<RevokeKeyState> {
  const auth = await authorize(form);
  if ('message' in auth) return { status: 'error', message: auth.message };
  try {
    await revokeApiKey({ tenantId: auth.member.tenant.id, id: String(form.get('id') ?? '') });
  } catch (error) {
    if (error instanceof NotFoundError) return { status: 'error', message: 'That key no longer exists.' };
    throw error;
  }
  revalidatePath('/api-keys');
  return { status: 'revoked' };
}
