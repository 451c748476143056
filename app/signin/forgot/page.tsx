// "Forgot your password?": the email, then one answer whatever the address (no oracle), and a
// link by email that works once (server/auth/password-reset.ts).
import type { Metadata } from 'next';
import Link from 'next/link';
import { RESET_LINK_MINUTES } from '@/server/auth/password-reset';
import { ForgotForm } from './forgot-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Reset your password · Herald' };

export default function ForgotPasswordPage() {
  return (
    <main className="auth-page">
      <section className="card auth-card signup-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title" style={{ marginTop: 0 }}>
          Reset your password
        </h1>
        <ForgotForm linkMinutes={RESET_LINK_MINUTES} />
        <p className="auth-back">
          <Link href="/signin">Back to sign in</Link>
        </p>
      </section>
    </main>
  );
}
