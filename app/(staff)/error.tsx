'use client';
import { ErrorState } from '@/app/_ui/primitives';

/** A screen that failed to render: say so, and offer to try again. */
export default function StaffError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorState title="This screen could not be shown" message={error.digest ? `Reference ${error.digest}` : error.message} onRetry={reset} />;
}
