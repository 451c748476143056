import { Composer } from '../_components/publishing/composer';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function ComposePage({ searchParams }: { searchParams: Promise<{ edit?: string }> }) {
  const { edit } = await searchParams;
  const caller = await staffCaller();
  const [connections, post] = await Promise.all([prefetch(() => caller.connections.list()), edit ? prefetch(() => caller.posts.get({ id: edit })) : null]);
  return <Composer key={edit ?? 'new'} connections={connections} post={post} editId={edit ?? null} />;
}
