'use client';
// A destructive action behind a confirmation that says what else goes with it (a crawled
// site's history, a webhook endpoint's delivery log …).
import { useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

export function ConfirmRemove({
  what,
  consequence,
  onConfirm,
  pending,
  verb = 'Remove',
}: {
  what: string;
  consequence: string;
  onConfirm: () => void;
  pending: boolean;
  verb?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`${verb} ${what}`}>
        {verb}
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={`${verb} ${what}?`} description={consequence}>
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
            {verb}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
