import { LoadingRows, Skeleton } from '@/app/_ui/primitives';

/** While a screen's first data loads on the server: its header and rows, at their final size. */
export default function Loading() {
  return (
    <div>
      <Skeleton className="mb-4 h-9 w-48" />
      <LoadingRows rows={6} />
    </div>
  );
}
