import { Composer } from '../_components/publishing/composer';
import { prefetch, staffCaller } from '../_lib/server-caller';

/** `?edit=<post id>` edits a post; `?media=<asset id>[,<asset id>…]` starts a new one with those library assets attached. */
export default async function ComposePage({ searchParams }: { searchParams: Promise<{ edit?: string; media?: string }> }) {
  const { edit, media } = await searchParams;
  const caller = await staffCaller();
  const ids = !edit && media ? media.split(',').filter(Boolean).slice(0, 10) : [];
  const [connections, post, library] = await Promise.all([
    prefetch(() => caller.connections.list()),
    edit ? prefetch(() => caller.posts.get({ id: edit })) : null,
    ids.length ? prefetch(() => caller.media.get({ ids })) : null,
  ]);
  return <Composer key={edit ?? media ?? 'new'} connections={connections} post={post} editId={edit ?? null} libraryMedia={library ?? []} />;
}
