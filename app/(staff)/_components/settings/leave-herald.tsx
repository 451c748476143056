'use client';
// Leaving Herald, for an agency's owner: the agency's data as a file (never a token or a
// secret), and the agency deleted — after typing its name — with everything that reaches
// it closed at once (server/agencies/leave.ts).
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { Card, FieldError, Input, Label } from '@/app/_ui/primitives';
import { useShell } from '../../_lib/providers';
import { serverError, trpc } from '../../_lib/trpc';

export function LeaveHerald() {
  const shell = useShell();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const exportData = useMutation({
    mutationFn: async () => (await trpc.agencies.export.query()).data,
    onSuccess: (data) => {
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `herald-export-${new Date().toISOString().slice(0, 10)}.json`;
      a.click();
      URL.revokeObjectURL(url);
      toast.success('The export is downloaded');
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const remove = useMutation({
    mutationFn: async () => (await trpc.agencies.delete.mutate({ confirmName: typed })).data,
    onSuccess: ({ purgeAfter, accountReleased }) => {
      // A full page load, not the router: the page after is outside the staff app and must
      // arrive without the app's styles (their reset would blank its own). It says what was
      // closed, when the rest goes, and what the owner's email can do now.
      const params = new URLSearchParams({ purge: purgeAfter, account: accountReleased ? 'released' : 'kept' });
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose (above)
      window.location.assign(`/agency-deleted?${params.toString()}`);
    },
    onError: (e) => setError(serverError(e).message),
  });
  return (
    <Card className="mt-4 max-w-xl space-y-3" data-testid="leave-herald">
      <h2 className="text-lg font-semibold">Leave Herald</h2>
      <p className="text-sm text-slate-600">
        Take {shell.current.name}’s data with you: its workspaces, members, posts with every account’s result, connected accounts, webhooks and keys — without
        any token or secret.
      </p>
      <Button variant="secondary" onClick={() => exportData.mutate()} disabled={exportData.isPending}>
        {exportData.isPending ? 'Preparing…' : 'Export the agency’s data'}
      </Button>
      <p className="text-sm text-slate-600">
        Deleting the agency also deletes its client workspaces. At once: every API key and assistant stops working, client links close, the tokens of connected
        accounts are erased and scheduled posts are cancelled, and members who work for no other agency are signed out, their email free to sign up again. The
        rest is removed after 30 days.
      </p>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete the agency…
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={`Delete ${shell.current.name}?`} description="This cannot be undone from the app.">
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            remove.mutate();
          }}
        >
          <div>
            <Label htmlFor="confirm-agency-name">Type the agency’s name, {shell.current.name}, to confirm</Label>
            <Input
              id="confirm-agency-name"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              aria-invalid={!!error}
              aria-describedby="confirm-agency-error"
            />
            <FieldError id="confirm-agency-error">{error}</FieldError>
          </div>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Keep the agency
            </Button>
            <Button type="submit" variant="danger" disabled={remove.isPending || typed.trim() !== shell.current.name}>
              {remove.isPending ? 'Deleting…' : 'Delete the agency'}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}
