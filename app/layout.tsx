import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

// Every page is rendered per request: its scripts carry the nonce of that response's CSP
// (proxy.ts), which a page prerendered at build could not know.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Herald',
  description: 'Publish to every channel, approve with your team, read what worked.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
