'use client';
// Copies a value (a secret shown once, a link, a snippet) and says so, for sighted and screen
// reader users alike. Falls back to selecting nothing silently: the value stays on screen.
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      size="sm"
      variant="secondary"
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
