'use client';
// A client workspace managed by the agency; its time zone defaults to the browser's. The
// address (slug) previews as the name is typed, by the server's own derivation.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { FieldError, Input, Label } from '@/app/_ui/primitives';
import { slugBase } from '@/server/workspaces/slug';
import { ZCreateWorkspaceInput, type WorkspaceDto } from '@/server/workspaces/workspaces.schemas';
import { browserTimeZone } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { enterWorkspace } from '../../_lib/workspace-cookie';

type Values = z.input<typeof ZCreateWorkspaceInput>;

export function NewClientDialog({
  open,
  onOpenChange,
  onCreated = (created) => enterWorkspace(created.id, '/'),
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** What follows: by default the app switches to the new workspace. */
  onCreated?: (created: WorkspaceDto) => void;
}) {
  const form = useForm<Values>({ resolver: zodResolver(ZCreateWorkspaceInput), defaultValues: { name: '', timeZone: browserTimeZone() } });
  const submit = form.handleSubmit(async (values) => {
    try {
      const created = (await trpc.workspaces.create.mutate({ ...values, slug: values.slug || undefined })).data;
      toast.success(`${created.name} created`);
      form.reset({ name: '', timeZone: values.timeZone });
      onCreated(created);
    } catch (err) {
      const e = serverError(err);
      form.setError((e.field as keyof Values) ?? 'name', { message: e.message });
    }
  });
  const errors = form.formState.errors;
  const [name, slug] = useWatch({ control: form.control, name: ['name', 'slug'] });
  const derived = slugBase(name ?? '');
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
          <Input id="ws-name" aria-invalid={!!errors.name} aria-describedby="ws-slug-preview" {...form.register('name')} />
          <FieldError>{errors.name?.message}</FieldError>
        </div>
        <div>
          <Label htmlFor="ws-slug">Address (optional)</Label>
          <Input
            id="ws-slug"
            aria-invalid={!!errors.slug}
            aria-describedby="ws-slug-preview"
            placeholder={derived.length >= 2 ? derived : 'made from the name'}
            {...form.register('slug', { setValueAs: (v: string) => (v === '' ? undefined : v) })}
          />
          <p id="ws-slug-preview" className="mt-1 text-xs text-slate-600" aria-live="polite">
            {slug
              ? `Address: ${slug}`
              : derived.length >= 2
                ? `Address: ${derived} (a short suffix is added if it is taken)`
                : name?.trim()
                  ? 'Addresses use the letters a to z and digits, and this name has too few of them, so Herald will make one up. Type one above to choose your own.'
                  : 'Address: made from the name as you type it'}
          </p>
          <FieldError>{errors.slug?.message}</FieldError>
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
