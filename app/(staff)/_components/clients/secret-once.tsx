'use client';
// A secret or link Herald shows once (it keeps only a hash): a copy button, and the warning
// that it cannot be shown again.
import { ExternalLink } from 'lucide-react';
import { Button } from '@/app/_ui/button';
import { CopyButton } from '../shell/copy-button';

export function SecretOnce({ label, value, warning, open }: { label: string; value: string; warning: string; open?: boolean }) {
  const id = `secret-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-3" role="region" aria-label={label}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <input
        id={id}
        readOnly
        value={value}
        onFocus={(e) => e.currentTarget.select()}
        className="mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm break-all text-slate-900"
        data-testid="secret-value"
      />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <CopyButton text={value} name={`Copy ${label.toLowerCase()}`} />
        {open ? (
          <Button size="sm" variant="secondary" asChild>
            <a href={value} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden className="size-4" />
              Open
            </a>
          </Button>
        ) : null}
      </div>
      <p className="mt-2 text-sm text-amber-900">{warning}</p>
    </div>
  );
}
