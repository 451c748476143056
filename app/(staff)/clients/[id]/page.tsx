import { ClientDetail } from '../../_components/clients/client-detail';
import { prefetch, staffCaller } from '../../_lib/server-caller';

export default async function ClientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const caller = await staffCaller();
  return <ClientDetail id={id} initial={await prefetch(() => caller.workspaces.get({ id }))} />;
}
