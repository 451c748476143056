'use client';
// The composer. Validation is the API's own: the form schema is built from the posts
// schemas, and the platform limits and settings are checked live by the same functions the
// services run (checkPlatformLimits, validatePlatformSettings over the platform catalogue).
// What only the server can know (accounts, media by URL, time rules) comes back as an error
// naming its field, and lands on that field.
import { zodResolver } from '@hookform/resolvers/zod';
import * as Tabs from '@radix-ui/react-tabs';
import { ImagePlus, Library, Link2, ListPlus, Loader2, X } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useFieldArray, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { cn } from '@/app/_ui/cn';
import { Badge, Card, ErrorState, FieldError, Input, Label, PageHeader, Textarea } from '@/app/_ui/primitives';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import { AppError } from '@/server/errors/app-error';
import type { MediaLibraryItemDto } from '@/server/media/media.schemas';
import type { ResolvedMedia } from '@/server/media/media.types';
import { canComment, catalogueEntry, MAX_THREAD_PARTS, PLATFORM_CATALOGUE, postsThreads } from '@/server/platforms/catalogue';
import { articleOf } from '@/server/platforms/catalogue/long-form';
import { platformLimitProblems } from '@/server/posts/platform-limits';
import { validatePlatformSettings } from '@/server/posts/platform-settings';
import { ZPostFields, type PostDto } from '@/server/posts/posts.schemas';
import type { Platform } from '@/server/shared/platforms';
import { useShell } from '../../_lib/providers';
import { formatIn, fromLocalInput, toLocalInput } from '../../_lib/time';
import { serverError, trpc, type ServerError } from '../../_lib/trpc';
import { BestTimes } from '../insights/best-times';
import { LibraryPicker } from './media-library';
import { precheckFile, uploadFile } from './media-upload';
import { MediaThumb } from '@/app/_ui/media-thumb';
import { inWords } from './in-words';
import { HealthBadge, platformLabel, useInvalidateAll } from './post-bits';
import { SettingInput, settingFields, settingsFromForm, settingsToForm } from './setting-fields';
import { ACCEPTED_CONTENT_TYPES } from '@/server/media/media-rules';

/** The form: the API's fields (same schemas), with the time as the workspace's wall clock. */
const ZComposerForm = z.object({
  content: ZPostFields.content,
  connectionIds: ZPostFields.connectionIds,
  variants: z.record(z.string(), z.object({ content: z.string() })),
  platformSettings: z.record(z.string(), z.record(z.string(), z.unknown())),
  firstComment: z.string(),
  /** A thread's later parts (text; a part's media go through the API). */
  parts: z.array(z.object({ content: z.string() })),
  scheduledLocal: z.string(),
  mediaUrl: z.string(),
});
type FormValues = z.infer<typeof ZComposerForm>;

interface MediaItem {
  key: string;
  name: string;
  status: 'uploading' | 'ready' | 'error';
  progress: number;
  error?: string;
  /** Uploaded: the asset; by URL: only the URL (the server fetches and checks it on save). */
  asset?: ResolvedMedia;
  url?: string;
}

type Intent = 'draft' | 'schedule' | 'approval' | 'publish' | 'queue';

/** The API's input from the form. */
function toInput(v: FormValues, variantOn: Record<string, boolean>, platforms: Platform[], media: MediaItem[], tz: string) {
  const variants = Object.fromEntries(
    Object.entries(v.variants ?? {})
      .filter(([p, x]) => platforms.includes(p as Platform) && variantOn[p] && x.content.trim() !== '')
      .map(([p, x]) => [p, { content: x.content }]),
  );
  const settings = Object.fromEntries(
    Object.entries(v.platformSettings)
      .filter(([p]) => platforms.includes(p as Platform))
      .map(([p, s]) => [p, settingsFromForm(p as Platform, s)])
      .filter(([, s]) => Object.keys(s as object).length > 0),
  );
  return {
    content: v.content,
    connectionIds: v.connectionIds,
    variants: Object.keys(variants).length ? variants : null,
    platformSettings: Object.keys(settings).length ? settings : null,
    firstComment: v.firstComment?.trim() ? v.firstComment : null,
    // Empty parts are left out: "Add to thread" then nothing typed adds nothing.
    parts: (v.parts ?? []).filter((part) => part.content.trim() !== '').map((part) => ({ content: part.content })),
    mediaIds: media.filter((m) => m.asset).map((m) => m.asset!.assetId),
    mediaUrls: media.filter((m) => m.url).map((m) => m.url!),
    scheduledAt: v.scheduledLocal ? fromLocalInput(v.scheduledLocal, tz) : null,
  };
}

function mediaFromPost(post: PostDto | null): MediaItem[] {
  // Stored media come back as URLs; kept as they are, they are sent back as mediaUrls only if
  // changed — an edit that does not touch media leaves them alone.
  return (post?.mediaUrls ?? []).map((url, i) => ({ key: `stored-${i}`, name: url.split('/').at(-1) ?? url, status: 'ready' as const, progress: 1, url }));
}

/** A library asset as the composer holds an upload: attached by id. */
function fromLibrary(a: MediaLibraryItemDto): MediaItem {
  return {
    key: `library-${a.id}`,
    name: a.name,
    status: 'ready',
    progress: 1,
    asset: { assetId: a.id, url: a.url ?? '', kind: a.kind, contentType: a.contentType, bytes: a.bytes, durationMs: a.durationMs },
  };
}

export function Composer({
  connections,
  post,
  editId,
  libraryMedia = [],
}: {
  connections: ConnectionDto[] | null;
  post: PostDto | null;
  editId: string | null;
  /** Opened from the media library ("Use in a new post"): these are attached from the start. */
  libraryMedia?: MediaLibraryItemDto[];
}) {
  const { current } = useShell();
  const tz = current.timeZone;
  const router = useRouter();
  const invalidate = useInvalidateAll();
  const [media, setMedia] = useState<MediaItem[]>(() => [...mediaFromPost(post), ...libraryMedia.map(fromLibrary)]);
  const [mediaTouched, setMediaTouched] = useState(libraryMedia.length > 0);
  const [picking, setPicking] = useState(false);
  const [mediaError, setMediaError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const [busy, setBusy] = useState<Intent | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [variantOn, setVariantOn] = useState<Record<string, boolean>>(() => Object.fromEntries(Object.keys(post?.variants ?? {}).map((p) => [p, true])));

  const form = useForm<FormValues>({
    resolver: zodResolver(ZComposerForm),
    defaultValues: {
      content: post?.content ?? '',
      connectionIds: post?.connectionIds ?? [],
      variants: Object.fromEntries(Object.entries(post?.variants ?? {}).map(([p, v]) => [p, { content: v?.content ?? '' }])),
      platformSettings: settingsToForm(post?.platformSettings as FormValues['platformSettings'] | null),
      firstComment: post?.firstComment ?? '',
      parts: (post?.parts ?? []).map((part) => ({ content: part.content })),
      scheduledLocal: post?.scheduledAt ? toLocalInput(post.scheduledAt, tz) : '',
      mediaUrl: '',
    },
  });
  const values = useWatch({ control: form.control }) as FormValues;
  const threadParts = useFieldArray({ control: form.control, name: 'parts' });
  const errors = form.formState.errors;
  const byId = useMemo(() => new Map((connections ?? []).map((c) => [c.id, c])), [connections]);
  const platforms = useMemo(
    () => [...new Set((values.connectionIds ?? []).map((id) => byId.get(id)?.platform).filter(Boolean))] as Platform[],
    [values.connectionIds, byId],
  );
  // The networks of the post that let Herald comment: the first comment goes to them.
  const commenting = useMemo(() => platforms.filter(canComment), [platforms]);
  // The networks of the post that take threads: the later parts go to them as replies.
  const threading = useMemo(() => platforms.filter(postsThreads), [platforms]);
  const grouped = useMemo(() => {
    const g = new Map<Platform, ConnectionDto[]>();
    for (const c of connections ?? []) g.set(c.platform, [...(g.get(c.platform) ?? []), c]);
    return [...g.entries()];
  }, [connections]);

  const dirty = form.formState.isDirty || mediaTouched;
  // The unsaved-changes guard: closing the tab, and links inside the app.
  useEffect(() => {
    if (!dirty || busy) return;
    const beforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    const onClick = (e: MouseEvent) => {
      const a = (e.target as HTMLElement).closest('a');
      if (!a || a.target === '_blank' || !a.href.startsWith(window.location.origin)) return;
      if (!window.confirm('You have unsaved changes. Leave without saving?')) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, busy]);

  // Live checks: the services' own functions on what the form holds now.
  const input = toInput(values as FormValues, variantOn, platforms, media, tz);
  const readyMedia = media.filter((m) => m.asset).map((m) => m.asset!);
  // Every problem at once, in the order the fields appear on the page.
  const liveProblems: AppError[] = (() => {
    if (platforms.length === 0 || !values.content) return [];
    try {
      const settings = validatePlatformSettings(input.platformSettings, platforms);
      // Media by URL are fetched and checked by the server on save; uploads are checked here.
      if (media.some((m) => m.url && !m.asset)) return [];
      return platformLimitProblems({
        platforms,
        content: input.content,
        variants: input.variants,
        media: readyMedia,
        settings,
        firstComment: input.firstComment,
        parts: input.parts.map((part) => ({ content: part.content, media: [] })),
      }).sort((a, b) => fieldRank(a.field) - fieldRank(b.field));
    } catch (err) {
      return err instanceof AppError ? [err] : [];
    }
  })();

  /** Moves the eye and the keyboard to the field a problem is about. */
  function focusField(field: string | undefined) {
    const el = document.getElementById(fieldElementId(field)) ?? document.querySelector<HTMLElement>('input[name="connectionIds"]');
    el?.scrollIntoView({ block: 'center' });
    el?.focus();
  }

  function showServerError(e: ServerError) {
    const field = e.field ?? e.messages?.[0]?.split(':')[0];
    const message = inWords(e);
    focusField(field);
    if (field?.startsWith('media')) return setMediaError(message);
    if (field?.startsWith('connectionIds')) return form.setError('connectionIds', { message });
    if (field === 'scheduledAt') return form.setError('scheduledLocal', { message });
    if (field === 'content' || field === 'firstComment' || field?.startsWith('variants.') || field?.startsWith('platformSettings.'))
      return form.setError(field as FieldPath<FormValues>, { message });
    const part = /^parts\[(\d+)\]\.content$/.exec(field ?? '');
    if (part) return form.setError(`parts.${Number(part[1])}.content`, { message });
    setFormError(message);
  }

  async function addFiles(files: FileList | File[]) {
    setMediaError(null);
    for (const file of Array.from(files)) {
      const refused = precheckFile(file);
      if (refused) {
        setMediaError(refused);
        continue;
      }
      const key = `${file.name}-${Date.now()}-${Math.random()}`;
      setMediaTouched(true);
      setMedia((m) => [...m, { key, name: file.name, status: 'uploading', progress: 0 }]);
      const update = (patch: Partial<MediaItem>) => setMedia((m) => m.map((x) => (x.key === key ? { ...x, ...patch } : x)));
      try {
        const asset = await uploadFile(file, (progress) => update({ progress }));
        update({
          status: 'ready',
          progress: 1,
          asset: {
            assetId: asset.id,
            url: asset.url ?? '',
            kind: asset.kind,
            contentType: asset.contentType,
            bytes: asset.bytes,
            durationMs: asset.durationMs,
          },
        });
      } catch (err) {
        update({ status: 'error', error: err instanceof Error && !('data' in err) ? err.message : serverError(err).message });
      }
    }
  }

  function attachUrl() {
    const url = form.getValues('mediaUrl').trim();
    if (!url) return;
    if (!/^https:\/\//i.test(url)) return form.setError('mediaUrl', { message: 'Media URLs must start with https://' });
    setMediaTouched(true);
    setMedia((m) => [...m, { key: `url-${Date.now()}`, name: url, status: 'ready', progress: 1, url }]);
    form.setValue('mediaUrl', '');
  }

  const submit = (intent: Intent) =>
    form.handleSubmit(async (v) => {
      setFormError(null);
      setMediaError(null);
      if (media.some((m) => m.status === 'uploading')) return setMediaError('Wait for the uploads to finish');
      if (media.some((m) => m.status === 'error')) return setMediaError('Remove the media that failed to upload');
      if (liveProblems.length) return focusField(liveProblems[0]!.field);
      const body = toInput(v, variantOn, platforms, media, tz);
      if ((intent === 'schedule' || intent === 'approval') && !body.scheduledAt) {
        focusField('scheduledAt');
        return form.setError('scheduledLocal', { message: 'Pick a date and time' });
      }
      setBusy(intent);
      try {
        const scheduledAt = intent === 'schedule' || intent === 'approval' ? body.scheduledAt! : undefined;
        const common = {
          content: body.content,
          connectionIds: body.connectionIds,
          ...(intent === 'approval' ? { requireApproval: true } : {}),
        };
        let saved: PostDto;
        let warnings: { code: string; message: string }[] = [];
        if (editId) {
          const res = await trpc.posts.update.mutate({
            id: editId,
            ...common,
            variants: body.variants,
            platformSettings: body.platformSettings,
            firstComment: body.firstComment,
            // Parts are sent only when changed: a part's media (given through the API) stay as they are.
            ...(form.formState.dirtyFields.parts ? { parts: body.parts } : {}),
            ...(mediaTouched ? { mediaIds: body.mediaIds, mediaUrls: body.mediaUrls } : {}),
            scheduledAt: scheduledAt ?? null,
          });
          saved = res.data;
          warnings = res.warnings;
        } else {
          const res = await trpc.posts.create.mutate({
            ...common,
            ...(body.variants ? { variants: body.variants } : {}),
            ...(body.platformSettings ? { platformSettings: body.platformSettings } : {}),
            ...(body.firstComment ? { firstComment: body.firstComment } : {}),
            ...(body.parts.length ? { parts: body.parts } : {}),
            ...(body.mediaIds.length ? { mediaIds: body.mediaIds } : {}),
            ...(body.mediaUrls.length ? { mediaUrls: body.mediaUrls } : {}),
            ...(scheduledAt ? { scheduledAt } : {}),
            ...(intent === 'queue' ? { queue: true as const } : {}),
          });
          saved = res.data;
          warnings = res.warnings;
        }
        if (intent === 'publish') saved = (await trpc.posts.publish.mutate({ id: saved.id })).data;
        for (const w of warnings) toast.message(w.message);
        toast.success(
          intent === 'draft'
            ? 'Draft saved'
            : intent === 'publish'
              ? `Post ${saved.status.replace('_', ' ')}`
              : saved.approvalStatus === 'pending'
                ? 'Scheduled, waiting for approval'
                : intent === 'queue'
                  ? `Added to the queue for ${formatIn(saved.scheduledAt!, tz)}`
                  : 'Scheduled',
        );
        form.reset(v);
        setMediaTouched(false);
        void invalidate();
        router.push(`/posts/${saved.id}`);
      } catch (err) {
        setBusy(null);
        showServerError(serverError(err));
      }
    })();

  if (!connections) return <ErrorState message="The accounts could not be loaded." onRetry={() => router.refresh()} />;
  if (editId && !post) return <ErrorState title="Post not found" message="No post with that id in this workspace." />;

  const canWrite = current.scopes.includes('posts:write');
  const uploading = media.some((m) => m.status === 'uploading');

  return (
    <>
      <PageHeader title={editId ? 'Edit post' : 'Compose'} />
      {!canWrite ? (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          Your role ({current.role}) can review posts but not write them.
        </p>
      ) : null}
      <form onSubmit={(e) => (e.preventDefault(), void submit('draft'))} noValidate className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_360px]">
        <div className="min-w-0 space-y-4">
          <Card>
            <fieldset>
              <legend className="mb-2 font-semibold">Accounts</legend>
              {grouped.length === 0 ? <p className="text-sm text-slate-600">No accounts connected to this workspace yet.</p> : null}
              {/* Networks side by side: fifteen of them, mostly one account each, stay on one screen. */}
              <div className="grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2">
                {grouped.map(([platform, list]) => (
                  <div key={platform} className="min-w-0">
                    <p className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{platformLabel(platform)}</p>
                    <ul className="grid grid-cols-1 gap-1">
                      {list.map((c) => {
                        const expired = c.tokenHealth === 'expired';
                        return (
                          <li key={c.id}>
                            <label
                              className={cn(
                                'flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm',
                                expired ? 'bg-slate-50 text-slate-600' : 'cursor-pointer hover:bg-slate-50',
                              )}
                            >
                              <input type="checkbox" value={c.id} disabled={expired} className="mt-1" {...form.register('connectionIds')} />
                              <span className="min-w-0 flex-1">
                                <span className="block truncate font-medium">{c.displayName}</span>
                                {expired ? <span className="block text-xs">Reconnect this account to post to it (its access expired).</span> : null}
                              </span>
                              <HealthBadge health={c.tokenHealth} />
                            </label>
                          </li>
                        );
                      })}
                    </ul>
                  </div>
                ))}
              </div>
              <FieldError>{errors.connectionIds?.message ?? (errors.connectionIds as { root?: { message?: string } } | undefined)?.root?.message}</FieldError>
            </fieldset>
          </Card>

          <Card className="space-y-3">
            <div>
              <Label htmlFor="content">Text</Label>
              <Textarea id="content" rows={6} aria-invalid={!!errors.content} aria-describedby="content-error counters" {...form.register('content')} />
              <FieldError id="content-error">{errors.content?.message}</FieldError>
            </div>
            <ul id="counters" className="flex flex-wrap gap-2" aria-label="Characters per platform">
              {platforms.map((p) => {
                const rules = PLATFORM_CATALOGUE[p].text;
                const v = values.variants?.[p];
                const text = variantOn[p] && v?.content.trim() ? v.content : (values.content ?? '');
                const n = rules.count(text);
                const over = n > rules.maxChars;
                return (
                  <li key={p} data-testid={`counter-${p}`}>
                    <Badge tone={over ? 'bad' : n > rules.maxChars * 0.9 ? 'warn' : 'neutral'}>
                      {platformLabel(p)}: {n}/{rules.maxChars}
                      {variantOn[p] ? ' (variant)' : ''}
                    </Badge>
                  </li>
                );
              })}
            </ul>
            {platforms.map((p) => (
              <div key={p} className="rounded-md border border-slate-200 p-2">
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={!!variantOn[p]}
                    onChange={(e) => {
                      setVariantOn((on) => ({ ...on, [p]: e.target.checked }));
                    }}
                  />
                  Different text for {platformLabel(p)}
                </label>
                {variantOn[p] ? (
                  <div className="mt-2">
                    <Label htmlFor={`variant-${p}`} className="sr-only">
                      {platformLabel(p)} text
                    </Label>
                    <Textarea
                      id={`variant-${p}`}
                      rows={3}
                      aria-invalid={!!errors.variants?.[p]?.content}
                      aria-label={`${platformLabel(p)} text`}
                      {...form.register(`variants.${p}.content`)}
                    />
                    <FieldError>{errors.variants?.[p]?.content?.message}</FieldError>
                  </div>
                ) : null}
              </div>
            ))}
            {threading.length || threadParts.fields.length ? (
              <div className="space-y-2" data-testid="thread-parts">
                {threadParts.fields.map((field, i) => (
                  <div key={field.id} className="border-l-2 border-brand-200 pl-3">
                    <div className="flex items-center justify-between gap-2">
                      <Label htmlFor={`part-${i}`}>Part {i + 2} of the thread</Label>
                      <button
                        type="button"
                        aria-label={`Remove part ${i + 2}`}
                        className="rounded p-1 hover:bg-slate-100"
                        onClick={() => threadParts.remove(i)}
                      >
                        <X aria-hidden className="size-4" />
                      </button>
                    </div>
                    <Textarea
                      id={`part-${i}`}
                      rows={3}
                      aria-invalid={!!errors.parts?.[i]?.content}
                      aria-describedby={`part-${i}-counters`}
                      {...form.register(`parts.${i}.content`)}
                    />
                    <ul id={`part-${i}-counters`} className="mt-1 flex flex-wrap gap-2" aria-label={`Characters of part ${i + 2} per platform`}>
                      {threading.map((p) => {
                        const rules = PLATFORM_CATALOGUE[p].text;
                        const n = rules.count(values.parts?.[i]?.content ?? '');
                        return (
                          <li key={p} data-testid={`part-${i}-counter-${p}`}>
                            <Badge tone={n > rules.maxChars ? 'bad' : n > rules.maxChars * 0.9 ? 'warn' : 'neutral'}>
                              {platformLabel(p)}: {n}/{rules.maxChars}
                            </Badge>
                          </li>
                        );
                      })}
                    </ul>
                    <FieldError>{errors.parts?.[i]?.content?.message}</FieldError>
                  </div>
                ))}
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => threadParts.append({ content: '' }, { focusName: `parts.${threadParts.fields.length}.content` })}
                  disabled={threadParts.fields.length >= MAX_THREAD_PARTS - 1}
                >
                  <ListPlus aria-hidden className="size-4" /> Add to thread
                </Button>
                <p className="text-sm text-slate-600">
                  {threading.length
                    ? `Each part is posted as a reply to the one before on ${threading.map(platformLabel).join(', ')}.`
                    : 'Threads go to X, Bluesky, Threads and Mastodon accounts only.'}
                </p>
              </div>
            ) : null}
            {commenting.length ? (
              <div>
                <Label htmlFor="first-comment">First comment (optional)</Label>
                <Textarea
                  id="first-comment"
                  rows={2}
                  placeholder="A link or hashtags, posted as a comment right after the post"
                  aria-describedby="first-comment-help"
                  aria-invalid={!!errors.firstComment}
                  {...form.register('firstComment')}
                />
                <p id="first-comment-help" className="mt-1 text-sm text-slate-600">
                  Posted under the post on {commenting.map(platformLabel).join(', ')}
                  {platforms.length > commenting.length ? '; the other networks take no comment from Herald' : ''}.
                </p>
                <FieldError>{errors.firstComment?.message}</FieldError>
              </div>
            ) : null}
            {liveProblems.length ? (
              <ul role="alert" aria-label="What the networks will refuse" className="space-y-1 text-sm text-red-700">
                {liveProblems.map((problem) => (
                  <li key={`${problem.code}-${problem.message}`} data-testid="limit-error">
                    {problem.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </Card>

          <Card className="space-y-3">
            <h2 className="font-semibold">Media</h2>
            <div
              onDragOver={(e) => {
                e.preventDefault();
                setDragOver(true);
              }}
              onDragLeave={() => setDragOver(false)}
              onDrop={(e) => {
                e.preventDefault();
                setDragOver(false);
                void addFiles(e.dataTransfer.files);
              }}
              className={cn(
                'flex flex-col items-center rounded-md border-2 border-dashed p-4 text-center text-sm',
                dragOver ? 'border-brand-600 bg-brand-50' : 'border-slate-300',
              )}
            >
              <ImagePlus aria-hidden className="mb-1 size-6 text-slate-500" />
              <p>Drop images or videos here, or</p>
              <div className="mt-2 flex flex-wrap justify-center gap-2">
                <Button variant="secondary" size="sm" onClick={() => fileInput.current?.click()}>
                  Choose files
                </Button>
                <Button variant="secondary" size="sm" onClick={() => setPicking(true)}>
                  <Library aria-hidden className="size-4" /> From library
                </Button>
              </div>
              <input
                ref={fileInput}
                type="file"
                multiple
                accept={ACCEPTED_CONTENT_TYPES.join(',')}
                className="sr-only"
                aria-label="Upload media"
                data-testid="media-input"
                onChange={(e) => {
                  if (e.target.files) void addFiles(e.target.files);
                  e.target.value = '';
                }}
              />
            </div>
            <div className="flex gap-2">
              <div className="min-w-0 flex-1">
                <Label htmlFor="media-url" className="sr-only">
                  Media URL
                </Label>
                <Input id="media-url" placeholder="https://… (attach by URL)" aria-invalid={!!errors.mediaUrl} {...form.register('mediaUrl')} />
              </div>
              <Button variant="secondary" onClick={attachUrl}>
                <Link2 aria-hidden className="size-4" /> Attach
              </Button>
            </div>
            <FieldError>{errors.mediaUrl?.message}</FieldError>
            {media.length ? (
              <ul className="space-y-2">
                {media.map((m) => (
                  <li key={m.key} className="rounded-md border border-slate-200 p-2 text-sm">
                    <div className="flex items-center gap-2">
                      {m.status === 'uploading' ? <Loader2 aria-hidden className="size-4 animate-spin" /> : null}
                      {m.status === 'ready' && (m.asset?.url || m.url) ? (
                        <MediaThumb url={(m.asset?.url || m.url)!} kind={m.asset?.kind} label="" className="size-10 shrink-0 rounded object-cover" />
                      ) : null}
                      <span className="min-w-0 flex-1 truncate">{m.name}</span>
                      {m.asset ? (
                        <span className="text-xs text-slate-600">
                          {m.asset.kind} · {Math.ceil(m.asset.bytes / 1024)} KB{m.asset.durationMs ? ` · ${Math.round(m.asset.durationMs / 1000)} s` : ''}
                        </span>
                      ) : m.url && m.status === 'ready' ? (
                        <span className="text-xs text-slate-600">by URL</span>
                      ) : null}
                      <button
                        type="button"
                        aria-label={`Remove ${m.name}`}
                        className="rounded p-1 hover:bg-slate-100"
                        onClick={() => {
                          setMediaTouched(true);
                          setMedia((list) => list.filter((x) => x.key !== m.key));
                        }}
                      >
                        <X aria-hidden className="size-4" />
                      </button>
                    </div>
                    {m.status === 'uploading' || (m.status === 'ready' && m.asset) ? (
                      <div
                        role="progressbar"
                        aria-label={`Upload of ${m.name}`}
                        aria-valuemin={0}
                        aria-valuemax={100}
                        aria-valuenow={Math.round(m.progress * 100)}
                        data-testid="upload-progress"
                        className="mt-2 h-1.5 overflow-hidden rounded bg-slate-200"
                      >
                        <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${Math.round(m.progress * 100)}%` }} />
                      </div>
                    ) : null}
                    {m.error ? <p className="mt-1 text-red-700">{m.error}</p> : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <FieldError>{mediaError}</FieldError>
            <LibraryPicker
              open={picking}
              onOpenChange={setPicking}
              attached={new Set(media.flatMap((m) => (m.asset ? [m.asset.assetId] : [])))}
              onPick={(a) => {
                setMediaTouched(true);
                setMediaError(null);
                setMedia((list) => (list.some((m) => m.asset?.assetId === a.id) ? list : [...list, fromLibrary(a)]));
              }}
            />
          </Card>

          {platforms.some((p) => settingFields(p).length) ? (
            <Card className="space-y-3">
              <h2 className="font-semibold">Platform settings</h2>
              {platforms.map((p) => {
                const fields = settingFields(p);
                if (!fields.length) return null;
                return (
                  <fieldset key={p} className="rounded-md border border-slate-200 p-3">
                    <legend className="px-1 text-sm font-medium">{platformLabel(p)}</legend>
                    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                      {fields.map((f) => (
                        <SettingInput
                          key={f.key}
                          field={f}
                          name={`platformSettings.${p}.${f.key}`}
                          id={`setting-${p}-${f.key}`}
                          register={form.register}
                          error={(path) => form.getFieldState(path as FieldPath<FormValues>, form.formState).error?.message as string | undefined}
                        />
                      ))}
                    </div>
                  </fieldset>
                );
              })}
            </Card>
          ) : null}
        </div>

        {/* On a phone the columns dissolve into the form, so the actions bar can stay in reach at the bottom. */}
        <div className="contents lg:block lg:min-w-0 lg:space-y-4">
          <Card className="space-y-3">
            <div>
              <Label htmlFor="scheduled">When ({tz})</Label>
              <Input id="scheduled" type="datetime-local" aria-invalid={!!errors.scheduledLocal} {...form.register('scheduledLocal')} />
              <FieldError>{errors.scheduledLocal?.message}</FieldError>
            </div>
            <div>
              <p className="mb-1 text-sm font-medium text-slate-800">Suggested times</p>
              <BestTimes tz={tz} compact onPick={(slot) => form.setValue('scheduledLocal', slot.localTime, { shouldDirty: true, shouldValidate: true })} />
            </div>
          </Card>
          {liveProblems.length || formError ? (
            <div className="space-y-2">
              {liveProblems.length ? (
                <div className="rounded-md bg-red-50 p-2 text-sm text-red-900" data-testid="compose-problems">
                  <p className="font-medium">{liveProblems.length === 1 ? '1 thing to fix' : `${liveProblems.length} things to fix`} before this can go out:</p>
                  <ul className="mt-1 list-disc pl-5">
                    {liveProblems.map((problem) => (
                      <li key={`${problem.code}-${problem.message}`}>
                        <button type="button" className="text-left underline" onClick={() => focusField(problem.field)}>
                          {inWords(problem)}
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              {formError ? (
                <p role="alert" className="text-sm text-red-700">
                  {formError}
                </p>
              ) : null}
            </div>
          ) : null}
          <div className="sticky bottom-0 z-10 -mx-4 space-y-2 border-t border-slate-200 bg-white p-3 shadow-[0_-2px_6px_rgba(15,23,42,0.08)] md:-mx-8 lg:static lg:mx-0 lg:rounded-lg lg:border lg:p-4 lg:shadow-sm">
            <div className="grid grid-cols-2 gap-2">
              <Button type="submit" variant="secondary" disabled={!canWrite || !!busy || uploading}>
                {busy === 'draft' ? 'Saving…' : 'Save draft'}
              </Button>
              <Button onClick={() => void submit('schedule')} disabled={!canWrite || !!busy || uploading}>
                {busy === 'schedule' ? 'Scheduling…' : 'Schedule'}
              </Button>
              <Button variant="secondary" onClick={() => void submit('approval')} disabled={!canWrite || !!busy || uploading}>
                {busy === 'approval' ? 'Sending…' : 'Request approval'}
              </Button>
              <Button variant="secondary" onClick={() => void submit('publish')} disabled={!canWrite || !!busy || uploading}>
                {busy === 'publish' ? 'Publishing…' : 'Publish now'}
              </Button>
              {editId ? null : (
                <Button variant="secondary" className="col-span-2" onClick={() => void submit('queue')} disabled={!canWrite || !!busy || uploading}>
                  {busy === 'queue' ? 'Adding…' : 'Add to queue'}
                </Button>
              )}
            </div>
            {dirty ? <p className="text-xs text-slate-600">Unsaved changes</p> : null}
            {editId ? (
              <Link href={`/posts/${editId}`} className="text-sm text-brand-700 underline">
                Back to the post
              </Link>
            ) : null}
          </div>
          <Card>
            <h2 className="mb-2 font-semibold">Preview</h2>
            {platforms.length === 0 ? (
              <p className="text-sm text-slate-600">Pick an account to see how the post looks there.</p>
            ) : (
              <Tabs.Root defaultValue={platforms[0]} key={platforms.join()}>
                <Tabs.List aria-label="Preview per platform" className="mb-2 flex flex-wrap gap-1">
                  {platforms.map((p) => (
                    <Tabs.Trigger
                      key={p}
                      value={p}
                      className="rounded-md px-2 py-1 text-sm text-slate-700 data-[state=active]:bg-brand-50 data-[state=active]:font-semibold data-[state=active]:text-brand-700"
                    >
                      {platformLabel(p)}
                    </Tabs.Trigger>
                  ))}
                </Tabs.List>
                {platforms.map((p) => {
                  const v = values.variants?.[p];
                  const text = variantOn[p] && v?.content.trim() ? v.content : values.content;
                  const account = (values.connectionIds ?? []).map((id) => byId.get(id)).find((c) => c?.platform === p);
                  const firstComment = (values.platformSettings?.[p] as { firstComment?: string } | undefined)?.firstComment;
                  const articleRule = catalogueEntry(p).article;
                  const article = articleRule
                    ? articleOf(text, (values.platformSettings?.[p] as { title?: string } | undefined)?.title, articleRule.maxTitle)
                    : null;
                  return (
                    <Tabs.Content key={p} value={p} className="rounded-md border border-slate-200 p-3" data-testid={`preview-${p}`}>
                      <p className="text-sm font-semibold">{account?.displayName}</p>
                      {article ? (
                        // An article network: the article the post makes, its title first.
                        <article className="mt-1 space-y-2" data-testid={`article-preview-${p}`}>
                          <h3 className="text-lg leading-snug font-bold break-words">
                            {article.title || <span className="text-slate-500">(no title yet)</span>}
                          </h3>
                          <p className="text-sm leading-relaxed break-words whitespace-pre-wrap">{article.body}</p>
                        </article>
                      ) : (
                        <p className="mt-1 text-sm break-words whitespace-pre-wrap">{text || <span className="text-slate-500">(no text yet)</span>}</p>
                      )}
                      {media.length ? (
                        <div className="mt-2 grid grid-cols-3 gap-1">
                          {media.map((m, i) => {
                            const src = m.asset?.url || m.url;
                            return src && m.status === 'ready' ? (
                              <MediaThumb
                                key={m.key}
                                url={src}
                                kind={m.asset?.kind}
                                label={`Media ${i + 1} of ${media.length} in the ${platformLabel(p)} preview`}
                                className="aspect-square w-full rounded object-cover"
                              />
                            ) : (
                              <div key={m.key} className="flex aspect-square items-center justify-center rounded bg-slate-100 text-xs text-slate-600">
                                {m.status === 'uploading' ? 'uploading…' : (m.asset?.kind ?? 'media')}
                              </div>
                            );
                          })}
                        </div>
                      ) : null}
                      {postsThreads(p) && input.parts.length ? (
                        <ol className="mt-2 space-y-2 border-l-2 border-slate-200 pl-3" aria-label={`The thread on ${platformLabel(p)}`}>
                          {input.parts.map((part, i) => (
                            <li key={i} className="text-sm break-words whitespace-pre-wrap">
                              <span className="mb-0.5 block text-xs text-slate-600">
                                {i + 2}/{input.parts.length + 1}
                              </span>
                              {part.content}
                            </li>
                          ))}
                        </ol>
                      ) : null}
                      {firstComment || input.firstComment ? (
                        <p className="mt-2 border-t border-slate-100 pt-2 text-xs text-slate-600">First comment: {firstComment || input.firstComment}</p>
                      ) : null}
                    </Tabs.Content>
                  );
                })}
              </Tabs.Root>
            )}
          </Card>
        </div>
      </form>
    </>
  );
}

/** Where each field sits on the page, top to bottom: the first problem is the first one met. */
function fieldRank(field: string | undefined): number {
  if (!field) return 9;
  if (field.startsWith('connectionIds')) return 0;
  if (field === 'content') return 1;
  if (field.startsWith('variants.')) return 2;
  if (field.startsWith('parts[')) return 2.2;
  if (field === 'firstComment') return 2.5;
  if (field.startsWith('media')) return 3;
  if (field.startsWith('platformSettings.')) return 4;
  if (field === 'scheduledAt') return 5;
  return 9;
}

/** The element a field's problem is about (ids of the inputs above). */
function fieldElementId(field: string | undefined): string {
  if (!field) return '';
  if (field === 'content') return 'content';
  const variant = /^variants\.(\w+)\./.exec(field);
  if (variant) return `variant-${variant[1]}`;
  if (field.startsWith('media')) return 'media-url';
  if (field === 'firstComment') return 'first-comment';
  const part = /^parts\[(\d+)\]/.exec(field);
  if (part) return `part-${part[1]}`;
  if (field === 'scheduledAt') return 'scheduled';
  return '';
}
