'use client';
// Shared pieces of the crawl screens: the crawler's outcome shown verbatim (an unknown code is
// treated as a failure, as the contract asks), and the confirmation before removing history.
import { useState } from 'react';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { Badge } from '@/app/_ui/primitives';

export function Outcome({ outcome, detail }: { outcome: string; detail: string | null }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-center gap-1.5">
      <Badge tone={outcome === 'ok' ? 'good' : 'bad'} className="font-mono">
        {outcome}
      </Badge>
      {detail ? <span className="text-sm break-all text-slate-700">{detail}</span> : null}
    </span>
  );
}

export function ConfirmRemove({ what, consequence, onConfirm, pending }: { what: string; consequence: string; onConfirm: () => void; pending: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Remove ${what}`}>
        Remove
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={`Remove ${what}?`} description={consequence}>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep
          </Button>
          <Button
            variant="danger"
            disabled={pending}
            onClick={() => {
              onConfirm();
              setOpen(false);
            }}
          >
            Remove
          </Button>
        </div>
      </Dialog>
    </>
  );
}
