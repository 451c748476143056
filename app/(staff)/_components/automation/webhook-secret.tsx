'use client';
// A signing secret, shown the one time the server returns it (create, rotate), with the
// verification snippet the receiver needs next to it.
import { KeyRound } from 'lucide-react';
import { Button } from '@/app/_ui/button';
import { Card } from '@/app/_ui/primitives';
import { VERIFICATION_SNIPPET } from '@/server/webhooks/verification-snippet';
import { CopyButton } from '../shell/copy-button';

export function WebhookSecret({ secret, name, onDone }: { secret: string; name: string; onDone: () => void }) {
  return (
    <Card className="mb-4 space-y-3 border-amber-300 bg-amber-50" data-testid="webhook-secret">
      <h2 className="flex items-center gap-2 font-semibold text-slate-900">
        <KeyRound aria-hidden className="size-4" /> Signing secret of {name}
      </h2>
      <p role="alert" className="text-sm text-amber-900">
        This is the only time Herald shows this secret. Copy it into your receiver now; if it is lost, rotate the secret.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1.5 text-sm break-all" data-testid="secret-value">
          {secret}
        </code>
        <CopyButton text={secret} label="Copy secret" />
      </div>
      <details>
        <summary className="cursor-pointer text-sm font-medium text-slate-800">Verify the signature in your receiver (Node)</summary>
        <pre className="mt-2 max-w-full overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100" tabIndex={0} aria-label="Verification snippet">
          {VERIFICATION_SNIPPET}
        </pre>
        <div className="mt-2">
          <CopyButton text={VERIFICATION_SNIPPET} label="Copy snippet" />
        </div>
      </details>
      <Button size="sm" onClick={onDone}>
        I have saved the secret
      </Button>
    </Card>
  );
}
