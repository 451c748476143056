import { ClientsList } from '../_components/clients/clients-list';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function ClientsPage() {
  const caller = await staffCaller();
  return <ClientsList initial={await prefetch(() => caller.app.clients())} />;
}
