'use client';
// The guided first hour on the dashboard: what a new agency has done of the steps that make
// Herald useful, each with the page (or the one click) that does it. Read from what exists;
// it disappears once every step is done. Above it, until the owner confirmed their email, a
// notice saying what waits for that and a button to send the link again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check } from 'lucide-react';
import Link from 'next/link';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Card } from '@/app/_ui/primitives';
import type { FirstStepsDto } from '@/server/agencies/first-steps';
import { useShell } from '../../_lib/providers';
import { serverError, trpc } from '../../_lib/trpc';

type Step = keyof FirstStepsDto['done'];

const STEPS: { key: Step; title: string; href?: string; action: string }[] = [
  { key: 'verifyEmail', title: 'Confirm your email', action: 'Open the link we sent you' },
  { key: 'connectAccount', title: 'Connect a social account', href: '/connections', action: 'Connect one, or add a demo account to try' },
  { key: 'firstPost', title: 'Write your first post', href: '/compose', action: 'Compose' },
  { key: 'addClient', title: 'Add a client', href: '/clients', action: 'Create a client workspace' },
  { key: 'apiKey', title: 'Get an API key', href: '/api-keys', action: 'Mint a key for your integration' },
  { key: 'assistant', title: 'Connect an assistant', href: '/assistant', action: 'Set up Claude, ChatGPT or Cursor' },
];

export function FirstSteps() {
  const shell = useShell();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['agencies.firstSteps'], queryFn: async () => (await trpc.agencies.firstSteps.query()).data });
  const resend = useMutation({
    mutationFn: () => trpc.agencies.resendVerification.mutate(),
    onSuccess: () => toast.success(`A new link is on its way to ${shell.user.email}`),
    onError: (e) => toast.error(serverError(e).message),
  });
  const sandbox = useMutation({
    mutationFn: () => trpc.agencies.addSandboxAccount.mutate({ platform: 'linkedin' }),
    onSuccess: () => {
      toast.success('A demo LinkedIn account is connected: it publishes nowhere, so try anything');
      void qc.invalidateQueries();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  if (!q.data || q.data.allDone) return null;
  const done = q.data.done;
  const left = STEPS.filter((s) => !done[s.key]).length;
  return (
    <Card className="mb-4 space-y-3" data-testid="first-steps">
      {!done.verifyEmail ? (
        <div role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p>
            <span className="font-semibold">Confirm your email ({shell.user.email}).</span> Until then you can try everything inside Herald; API keys, clients,
            webhooks and assistants open once it is confirmed.
          </p>
          <Button size="sm" variant="secondary" className="mt-2" onClick={() => resend.mutate()} disabled={resend.isPending}>
            {resend.isPending ? 'Sending…' : 'Send the link again'}
          </Button>
        </div>
      ) : null}
      <div>
        <h2 className="font-semibold">Your first hour with Herald</h2>
        <p className="text-sm text-slate-600">
          {left} of {STEPS.length} steps left. This list goes away when they are done.
        </p>
      </div>
      <ol className="space-y-2">
        {STEPS.map((step) => (
          <li key={step.key} className="flex flex-wrap items-center gap-2 text-sm" data-testid={`first-step-${step.key}`} data-done={done[step.key]}>
            <span
              className={
                done[step.key]
                  ? 'flex size-5 items-center justify-center rounded-full bg-emerald-600 text-white'
                  : 'size-5 rounded-full border-2 border-slate-300'
              }
              aria-hidden
            >
              {done[step.key] ? <Check className="size-3" /> : null}
            </span>
            <span className={done[step.key] ? 'text-slate-600 line-through' : 'font-medium'}>
              {step.title}
              <span className="sr-only">{done[step.key] ? ' (done)' : ' (to do)'}</span>
            </span>
            {!done[step.key] && step.href ? (
              <Link href={step.href} className="text-brand-700 underline">
                {step.action}
              </Link>
            ) : null}
            {!done[step.key] && step.key === 'connectAccount' ? (
              <Button size="sm" variant="secondary" onClick={() => sandbox.mutate()} disabled={sandbox.isPending}>
                Add a demo account
              </Button>
            ) : null}
          </li>
        ))}
      </ol>
    </Card>
  );
}
