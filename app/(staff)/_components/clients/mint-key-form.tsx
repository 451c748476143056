'use client';
// Minting a key: name, scopes (each with what it lets the key do), expiry. Used for the
// acting workspace (API keys screen) and for a client (its page); the caller passes the
// procedure. The secret is shown once afterwards.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { FieldError, Input, Label } from '@/app/_ui/primitives';
import type { MintedKeyDto, MintKeyInput } from '@/server/api-keys/api-keys.schemas';
import { ZMintKeyInput } from '@/server/api-keys/api-keys.schemas';
import { SCOPE_DESCRIPTIONS, ZScope, type Scope } from '@/server/auth/scopes';
import { useShell } from '../../_lib/providers';
import { fromLocalInput } from '../../_lib/time';
import { serverError } from '../../_lib/trpc';
import { SecretOnce } from './secret-once';

// The expiry is picked as a day; the schema's timestamp is derived from it on submit.
const ZForm = ZMintKeyInput.pick({ name: true }).extend({ scopes: z.array(ZScope).min(1, 'Pick at least one scope'), expiresOn: z.string() });
type Values = z.input<typeof ZForm>;

export function MintKeyForm({
  scopes,
  mint,
  onMinted,
  idPrefix,
}: {
  /** The scopes offered, in the catalogue's order. */
  scopes: readonly Scope[];
  mint: (input: MintKeyInput) => Promise<MintedKeyDto>;
  onMinted?: () => void;
  idPrefix: string;
}) {
  const tz = useShell().current.timeZone;
  const [minted, setMinted] = useState<MintedKeyDto | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(ZForm),
    defaultValues: { name: '', scopes: scopes.filter((s) => s !== 'workspaces:manage'), expiresOn: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    const expiresAt = values.expiresOn ? fromLocalInput(`${values.expiresOn}T23:59`, tz) : null;
    try {
      setMinted(await mint({ name: values.name, scopes: values.scopes, expiresAt }));
      form.reset({ name: '', scopes: values.scopes, expiresOn: '' });
      onMinted?.();
    } catch (err) {
      const e = serverError(err);
      const field = e.field === 'expiresAt' ? 'expiresOn' : e.field === 'scopes' ? 'scopes' : 'name';
      form.setError(field, { message: e.message });
    }
  });
  const errors = form.formState.errors;
  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="space-y-3" noValidate aria-label="Mint an API key">
        <div>
          <Label htmlFor={`${idPrefix}-name`}>Key name</Label>
          <Input id={`${idPrefix}-name`} aria-invalid={!!errors.name} placeholder="e.g. Scheduling tool" {...form.register('name')} />
          <FieldError>{errors.name?.message}</FieldError>
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800">What the key may do</legend>
          <div className="space-y-1.5">
            {scopes.map((s) => (
              <label key={s} className="flex items-start gap-2 text-sm">
                <input type="checkbox" value={s} className="mt-1 size-4 shrink-0" {...form.register('scopes')} />
                <span className="min-w-0">
                  <code className="font-mono text-slate-900">{s}</code>
                  <span className="text-slate-600"> — {SCOPE_DESCRIPTIONS[s]}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError>{errors.scopes?.message ?? errors.scopes?.root?.message}</FieldError>
        </fieldset>
        <div>
          <Label htmlFor={`${idPrefix}-expires`}>Expires on (optional)</Label>
          <Input id={`${idPrefix}-expires`} type="date" className="sm:max-w-xs" aria-invalid={!!errors.expiresOn} {...form.register('expiresOn')} />
          <p className="mt-1 text-xs text-slate-600">Empty: the key works until it is revoked.</p>
          <FieldError>{errors.expiresOn?.message}</FieldError>
        </div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          Mint key
        </Button>
      </form>
      {minted ? (
        <SecretOnce
          label={`Secret of “${minted.name}”`}
          value={minted.secret}
          warning="Copy it now: Herald keeps only a hash and cannot show this secret again."
        />
      ) : null}
    </div>
  );
}
