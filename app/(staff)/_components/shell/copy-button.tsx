'use client';
// Copies a value (a secret shown once, a link, a snippet) and says so, for sighted and screen
// reader users alike. When the browser refuses, it says so: the value stays on screen to copy by hand.
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';

/** `label` is the visible text; `name`, when given, the fuller accessible name (it must start with the label). */
export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      size="sm"
      variant="secondary"
      aria-label={name}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 2_000);
        } catch {
          toast.error('Copying was refused by the browser: select the text and copy it by hand');
        }
      }}
    >
      {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </Button>
  );
}
