// The signed-in staff app: navigation, workspace switcher and the providers every screen
// uses. The shell's data comes from the same procedure the browser refreshes it with.
import type { ReactNode } from 'react';
import { redirect } from 'next/navigation';
import { currentStaffUserId, signOut } from '@/server/auth/staff-auth';
import { mustEnrolTwoFactor } from '@/server/auth/two-factor';
import { AppShell } from './_components/shell/app-shell';
import { ResetWorkspace } from './_components/shell/reset-workspace';
import { Providers } from './_lib/providers';
import { staffCaller } from './_lib/server-caller';
import './staff.css';

export const dynamic = 'force-dynamic';

export default async function StaffLayout({ children }: { children: ReactNode }) {
  // A member whose agency requires a second factor sets one up before anything else.
  const userId = await currentStaffUserId();
  if (userId && (await mustEnrolTwoFactor(userId))) redirect('/signin/two-factor');
  const caller = await staffCaller();
  let shell;
  try {
    shell = (await caller.app.shell()).data;
  } catch (err) {
    // The remembered workspace is no longer one this member may act for: forget it.
    if ((err as { cause?: { code?: string } }).cause?.code === 'WORKSPACE_NOT_MANAGED') return <ResetWorkspace />;
    redirect('/signin');
  }
  return (
    <Providers shell={shell}>
      <AppShell
        signOutAction={async () => {
          'use server';
          // A path, not Auth.js's absolute redirect: stay on the address the browser opened.
          await signOut({ redirect: false });
          redirect('/signin');
        }}
      >
        {children}
      </AppShell>
    </Providers>
  );
}
