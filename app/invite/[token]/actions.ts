'use server';
// The invitation page's actions: accept by setting a password (a new account, then signed in
// by path, like sign-up) or, signed in with the invited email, accept as that member. Both
// call the invitations service (server/workspaces/member-invitations.ts).
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { ZodError } from 'zod';
import { currentStaffUserId, signIn } from '@/server/auth/staff-auth';
import { AppError } from '@/server/errors/app-error';
import { acceptInvitationAsMember, acceptInvitationWithPassword } from '@/server/workspaces/member-invitations';
import { WORKSPACE_COOKIE } from '@/app/(staff)/_lib/workspace-cookie';

export interface AcceptState {
  error?: { field?: string; message: string };
  name?: string;
}

export async function acceptWithPasswordAction(token: string, _prev: AcceptState, form: FormData): Promise<AcceptState> {
  const name = String(form.get('name') ?? '');
  const password = String(form.get('password') ?? '');
  let email: string;
  try {
    ({ email } = await acceptInvitationWithPassword(token, { name, password }));
  } catch (error) {
    if (error instanceof AppError) return { error: { field: error.field, message: error.message }, name };
    if (error instanceof ZodError) {
      const field = String(error.issues[0]?.path[0] ?? '');
      return { error: { field, message: field === 'name' ? 'Say who you are (your name, up to 80 characters)' : 'Choose a password' }, name };
    }
    throw error;
  }
  await signIn('credentials', { email, password, redirect: false });
  redirect('/');
}

export async function acceptAsMemberAction(token: string): Promise<AcceptState> {
  const userId = await currentStaffUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`);
  let workspaceId: string;
  try {
    ({ workspaceId } = await acceptInvitationAsMember(token, userId));
  } catch (error) {
    if (error instanceof AppError) return { error: { message: error.message } };
    throw error;
  }
  // Opens the app in the agency just joined.
  (await cookies()).set(WORKSPACE_COOKIE, workspaceId, { path: '/', sameSite: 'lax', maxAge: 365 * 24 * 3600 });
  redirect('/');
}
