'use client';
// Detaching says exactly what happens (contract: Managed workspace → detached).
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';

export function DetachDialog({
  client,
  onOpenChange,
  onConfirm,
  pending,
}: {
  client: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
  onConfirm: (id: string) => void;
  pending: boolean;
}) {
  return (
    <Dialog open={client !== null} onOpenChange={onOpenChange} title={`Detach ${client?.name ?? ''}?`} description="Your agency stops managing this workspace.">
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>Nothing is deleted: its posts, accounts and history stay in the workspace.</li>
        <li>Every connect and review link you sent it is revoked at once.</li>
        <li>API keys minted for it keep working; revoke them first if they should stop.</li>
        <li>It leaves your Clients list and workspace switcher.</li>
      </ul>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Keep managing
        </Button>
        <Button variant="danger" disabled={pending || !client} onClick={() => client && onConfirm(client.id)}>
          Detach
        </Button>
      </div>
    </Dialog>
  );
}
