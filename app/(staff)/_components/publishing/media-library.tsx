'use client';
// The media library: every uploaded or imported file of the workspace as a thumbnail, searched
// by name, kind and date (the filters and page live in the address), uploaded from here, reused
// in a new post, and deleted once no post uses it. The composer's "From library" picker is the
// same list, smaller.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, ImagePlus, Loader2, PenSquare, Play, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { MediaThumb } from '@/app/_ui/media-thumb';
import { Badge, Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader, Select } from '@/app/_ui/primitives';
import type { ListMediaQuery, MediaLibraryItemDto } from '@/server/media/media.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn, fromLocalInput } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { precheckFile, uploadFile } from './media-upload';
import { ACCEPTED_CONTENT_TYPES } from '@/server/media/media-rules';

const FILTER_KEYS = ['search', 'kind', 'from', 'to'] as const;
type Filters = Record<(typeof FILTER_KEYS)[number], string>;
type LibraryPage = { data: MediaLibraryItemDto[]; page: number; limit: number; total: number };
const LIMIT = 24;

/** The API's query from the form's filters (dates are whole days on the workspace's clock). */
function libraryQuery(filters: Filters, page: number, limit: number, tz: string): ListMediaQuery {
  return {
    page,
    limit,
    status: 'ready',
    ...(filters.search.trim() ? { search: filters.search.trim() } : {}),
    ...(filters.kind === 'image' || filters.kind === 'video' ? { kind: filters.kind } : {}),
    ...(filters.from ? { from: fromLocalInput(`${filters.from}T00:00`, tz)! } : {}),
    ...(filters.to ? { to: fromLocalInput(`${filters.to}T23:59`, tz)! } : {}),
  };
}

export function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.ceil(bytes / 1024))} KB`;
}

export function MediaLibrary({ initial }: { initial: LibraryPage | null }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const canUpload = current.scopes.includes('media:write');
  const canPost = current.scopes.includes('posts:write');
  const qc = useQueryClient();
  const params = useSearchParams();
  const [filters, setFilters] = useState<Filters>(() => Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])) as Filters);
  const [page, setPageState] = useState(() => Math.max(1, Number(params.get('page')) || 1));
  const rememberInUrl = (next: Filters, nextPage: number) => {
    const qs = new URLSearchParams(Object.entries(next).filter(([, v]) => v !== ''));
    if (nextPage > 1) qs.set('page', String(nextPage));
    window.history.replaceState(null, '', qs.size ? `?${qs}` : window.location.pathname);
  };
  const setPage = (next: number) => {
    setPageState(next);
    rememberInUrl(filters, next);
  };
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => {
    const next = { ...filters, [k]: e.target.value };
    setFilters(next);
    setPageState(1);
    rememberInUrl(next, 1);
  };

  const query = libraryQuery(filters, page, LIMIT, tz);
  const isDefault = page === 1 && Object.values(filters).every((v) => v === '');
  const q = useQuery({
    queryKey: ['media.list', query],
    queryFn: () => trpc.media.list.query(query),
    initialData: isDefault && initial ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['media.list'] });

  const [uploads, setUploads] = useState<{ key: string; name: string; progress: number; error?: string }[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  async function upload(files: FileList) {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${Date.now()}-${Math.random()}`;
      const refused = precheckFile(file);
      setUploads((u) => [...u, { key, name: file.name, progress: 0, error: refused ?? undefined }]);
      if (refused) continue;
      const update = (patch: { progress?: number; error?: string }) => setUploads((u) => u.map((x) => (x.key === key ? { ...x, ...patch } : x)));
      try {
        await uploadFile(file, (progress) => update({ progress }));
        setUploads((u) => u.filter((x) => x.key !== key));
        toast.success(`${file.name} uploaded`);
        void refresh();
      } catch (err) {
        update({ error: err instanceof Error && !('data' in err) ? err.message : serverError(err).message });
      }
    }
  }

  const [deleting, setDeleting] = useState<{ asset: MediaLibraryItemDto; refusal?: string } | null>(null);
  const remove = useMutation({
    mutationFn: (asset: MediaLibraryItemDto) => trpc.media.delete.mutate({ id: asset.id }),
    onSuccess: (_r, asset) => {
      toast.success(`${asset.name} deleted`);
      setDeleting(null);
      void refresh();
    },
    onError: async (err, asset) => {
      const e = serverError(err);
      if (e.code !== 'MEDIA_IN_USE') {
        toast.error(e.message);
        return;
      }
      // Used since the page was loaded: show who uses it now.
      const [now] = (await trpc.media.get.query({ ids: [asset.id] })).data;
      setDeleting({ asset: now ?? asset, refusal: e.message });
      void refresh();
    },
  });

  const rows = q.data?.data ?? [];
  const pages = q.data ? Math.max(1, Math.ceil(q.data.total / LIMIT)) : 1;

  return (
    <>
      <PageHeader title="Media library">
        {canUpload ? (
          <>
            <Button onClick={() => fileInput.current?.click()}>
              <ImagePlus aria-hidden className="size-4" /> Upload
            </Button>
            <input
              ref={fileInput}
              type="file"
              multiple
              accept={ACCEPTED_CONTENT_TYPES.join(',')}
              className="sr-only"
              aria-label="Upload images or videos to the library"
              data-testid="library-upload-input"
              onChange={(e) => {
                if (e.target.files) void upload(e.target.files);
                e.target.value = '';
              }}
            />
          </>
        ) : null}
      </PageHeader>

      <Card className="mb-4">
        <form role="search" aria-label="Filter media" className="grid grid-cols-2 gap-3 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
          <div className="col-span-2 lg:col-span-1">
            <Label htmlFor="m-search">Name</Label>
            <Input id="m-search" type="search" value={filters.search} onChange={set('search')} placeholder="File name…" />
          </div>
          <div className="col-span-2 lg:col-span-1">
            <Label htmlFor="m-kind">Kind</Label>
            <Select id="m-kind" value={filters.kind} onChange={set('kind')}>
              <option value="">Images and videos</option>
              <option value="image">Images</option>
              <option value="video">Videos</option>
            </Select>
          </div>
          <div>
            <Label htmlFor="m-from">Added from</Label>
            <Input id="m-from" type="date" value={filters.from} onChange={set('from')} />
          </div>
          <div>
            <Label htmlFor="m-to">Added to</Label>
            <Input id="m-to" type="date" value={filters.to} onChange={set('to')} />
          </div>
        </form>
      </Card>

      {uploads.length ? (
        <ul className="mb-4 space-y-2" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key} className="rounded-md border border-slate-200 bg-white p-2 text-sm">
              <div className="flex items-center gap-2">
                {u.error ? null : <Loader2 aria-hidden className="size-4 animate-spin" />}
                <span className="min-w-0 flex-1 truncate">{u.name}</span>
                {u.error ? (
                  <Button size="sm" variant="ghost" onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}>
                    Dismiss
                  </Button>
                ) : null}
              </div>
              {u.error ? (
                <p className="mt-1 text-red-700">{u.error}</p>
              ) : (
                <div
                  role="progressbar"
                  aria-label={`Upload of ${u.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(u.progress * 100)}
                  className="mt-2 h-1.5 overflow-hidden rounded bg-slate-200"
                >
                  <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${Math.round(u.progress * 100)}%` }} />
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : null}

      {q.isPending ? (
        <LoadingRows rows={6} label="Loading media" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={isDefault ? 'No media yet' : 'No media match these filters'}>
          {isDefault ? 'Upload images and videos here, or attach them in the composer: they all land in the library.' : null}
        </EmptyState>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600" aria-live="polite">
            {q.data.total} file{q.data.total === 1 ? '' : 's'}
          </p>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Media">
            {rows.map((a) => (
              <li key={a.id} data-testid="library-item">
                <Card className="flex h-full flex-col gap-2 p-2">
                  <a
                    href={a.url!}
                    target="_blank"
                    rel="noreferrer"
                    className="relative block aspect-square overflow-hidden rounded-md border border-slate-200 bg-slate-100"
                  >
                    <MediaThumb url={a.url!} kind={a.kind} label={a.name} className="h-full w-full object-cover" />
                    {a.kind === 'video' ? (
                      <span className="absolute inset-0 flex items-center justify-center">
                        <span className="rounded-full bg-slate-900/70 p-2 text-white">
                          <Play aria-hidden className="size-5" />
                        </span>
                      </span>
                    ) : null}
                  </a>
                  <div className="min-w-0">
                    <p className="truncate text-sm font-medium" title={a.name}>
                      {a.name}
                    </p>
                    <p className="text-xs text-slate-600">
                      {a.kind === 'video' ? 'Video' : 'Image'} · {sizeOf(a.bytes)}
                      {a.width && a.height ? ` · ${a.width}×${a.height}` : ''}
                    </p>
                    <p className="text-xs text-slate-600">Added {formatIn(a.createdAt, tz, 'd MMM yyyy')}</p>
                  </div>
                  <div>
                    {a.usedBy.posts ? (
                      <Badge tone="info" data-testid="usage">
                        In {a.usedBy.posts} post{a.usedBy.posts === 1 ? '' : 's'}
                      </Badge>
                    ) : (
                      <Badge data-testid="usage">Not used</Badge>
                    )}
                  </div>
                  <div className="mt-auto flex flex-wrap gap-1">
                    {canPost ? (
                      <Button size="sm" variant="secondary" asChild>
                        <Link href={`/compose?media=${a.id}`} aria-label={`Use ${a.name} in a new post`}>
                          <PenSquare aria-hidden className="size-4" /> Use
                        </Link>
                      </Button>
                    ) : null}
                    {canUpload ? (
                      <Button size="sm" variant="ghost" aria-label={`Delete ${a.name}`} onClick={() => setDeleting({ asset: a })}>
                        <Trash2 aria-hidden className="size-4" /> Delete
                      </Button>
                    ) : null}
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-2 text-sm">
            <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {pages}
            </span>
            <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </nav>
        </>
      )}

      {deleting ? (
        <DeleteDialog
          asset={deleting.asset}
          refusal={deleting.refusal}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(deleting.asset)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}

/**
 * Delete, confirmed. An asset posts use is not deletable: the dialog says so and lists them,
 * linked (also when the server refused because a post took it up meanwhile).
 */
function DeleteDialog({
  asset,
  refusal,
  pending,
  onConfirm,
  onClose,
}: {
  asset: MediaLibraryItemDto;
  refusal?: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const used = asset.usedBy.posts > 0;
  return (
    <Dialog
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      title={used ? `${asset.name} is in use` : `Delete ${asset.name}?`}
      description={
        used
          ? `It is attached to ${asset.usedBy.posts} post${asset.usedBy.posts === 1 ? '' : 's'} that ${asset.usedBy.posts === 1 ? 'is' : 'are'} not cancelled, so it cannot be deleted. Remove it from ${asset.usedBy.posts === 1 ? 'that post' : 'those posts'} (or cancel ${asset.usedBy.posts === 1 ? 'it' : 'them'}) first.`
          : 'No post uses it. The file is removed from storage and cannot be brought back.'
      }
    >
      {used ? (
        <div className="space-y-3" data-testid="media-in-use">
          {refusal ? <FieldError>{refusal}</FieldError> : null}
          <ul className="max-h-64 space-y-1 overflow-y-auto text-sm" aria-label="Posts using it">
            {asset.usedBy.postIds.map((id) => (
              <li key={id}>
                <UsingPost id={id} />
              </li>
            ))}
          </ul>
          {asset.usedBy.posts > asset.usedBy.postIds.length ? (
            <p className="text-sm text-slate-600">and {asset.usedBy.posts - asset.usedBy.postIds.length} more</p>
          ) : null}
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Keep
          </Button>
          <Button variant="danger" disabled={pending} onClick={onConfirm}>
            Delete
          </Button>
        </div>
      )}
    </Dialog>
  );
}

/** A post that uses the asset: its text, linked to its page. */
function UsingPost({ id }: { id: string }) {
  const q = useQuery({ queryKey: ['posts.get', id], queryFn: () => trpc.posts.get.query({ id }) });
  const post = q.data?.data;
  return (
    <Link href={`/posts/${id}`} className="flex items-center gap-2 rounded px-1 py-0.5 text-brand-700 underline hover:bg-slate-50">
      <span className="min-w-0 flex-1 truncate">{post ? post.content || '(no text)' : `Post ${id.slice(0, 8)}`}</span>
      {post ? <span className="shrink-0 text-xs text-slate-600 no-underline">{post.status.replace('_', ' ')}</span> : null}
    </Link>
  );
}

/** The composer's "From library": pick ready assets to attach; those already attached are marked. */
export function LibraryPicker({
  open,
  onOpenChange,
  attached,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  attached: ReadonlySet<string>;
  onPick: (asset: MediaLibraryItemDto) => void;
}) {
  const { current } = useShell();
  const [search, setSearch] = useState('');
  const query = libraryQuery({ search, kind: '', from: '', to: '' }, 1, 24, current.timeZone);
  const q = useQuery({ queryKey: ['media.list', query], queryFn: () => trpc.media.list.query(query), enabled: open, placeholderData: keepPreviousData });
  const rows = q.data?.data ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Attach from the media library" description="Files already uploaded or imported in this workspace.">
      <div className="space-y-3">
        <div>
          <Label htmlFor="picker-search">Name</Label>
          <Input id="picker-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="File name…" />
        </div>
        {q.isPending ? (
          <LoadingRows rows={3} label="Loading media" />
        ) : q.isError ? (
          <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState title={search ? 'Nothing by that name' : 'The library is empty'} />
        ) : (
          <ul className="grid max-h-80 grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-4" aria-label="Library media">
            {rows.map((a) => {
              const on = attached.has(a.id);
              return (
                <li key={a.id}>
                  <button
                    type="button"
                    aria-pressed={on}
                    aria-label={on ? `${a.name} (attached)` : `Attach ${a.name}`}
                    disabled={on}
                    onClick={() => onPick(a)}
                    className="relative block w-full overflow-hidden rounded-md border border-slate-200 bg-slate-100 text-left hover:border-brand-600 disabled:opacity-70"
                  >
                    <MediaThumb url={a.url!} kind={a.kind} label="" className="aspect-square w-full object-cover" />
                    <span className="block truncate bg-white px-1 py-0.5 text-xs">{a.name}</span>
                    {on ? (
                      <span className="absolute top-1 right-1 rounded-full bg-brand-600 p-0.5 text-white">
                        <Check aria-hidden className="size-3" />
                      </span>
                    ) : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <div className="flex justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Done
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
