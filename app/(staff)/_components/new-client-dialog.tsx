'use client';
// A client workspace managed by the agency; its time zone defaults to the browser's.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { FieldError, Input, Label } from '@/app/_ui/primitives';
import { ZCreateWorkspaceInput } from '@/server/workspaces/workspaces.schemas';
import { browserTimeZone } from '../_lib/time';
import { serverError, trpc } from '../_lib/trpc';
import { enterWorkspace } from '../_lib/workspace-cookie';

type Values = z.input<typeof ZCreateWorkspaceInput>;

export function NewClientDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const form = useForm<Values>({ resolver: zodResolver(ZCreateWorkspaceInput), defaultValues: { name: '', timeZone: browserTimeZone() } });
  const submit = form.handleSubmit(async (values) => {
    try {
      const created = (await trpc.workspaces.create.mutate(values)).data;
      toast.success(`${created.name} created`);
      enterWorkspace(created.id, '/');
    } catch (err) {
      const e = serverError(err);
      form.setError((e.field as keyof Values) ?? 'name', { message: e.message });
    }
  });
  const errors = form.formState.errors;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New client workspace"
      description="A workspace your agency manages, with its own accounts and posts."
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <div>
          <Label htmlFor="ws-name">Name</Label>
          <Input id="ws-name" aria-invalid={!!errors.name} {...form.register('name')} />
          <FieldError>{errors.name?.message}</FieldError>
        </div>
        <div>
          <Label htmlFor="ws-tz">Time zone</Label>
          <Input id="ws-tz" aria-invalid={!!errors.timeZone} {...form.register('timeZone')} />
          <FieldError>{errors.timeZone?.message}</FieldError>
        </div>
        <div className="flex justify-end">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            Create
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
