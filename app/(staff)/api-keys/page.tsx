import { ApiKeys } from '../_components/clients/api-keys';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function ApiKeysPage() {
  const caller = await staffCaller();
  return <ApiKeys initial={await prefetch(() => caller.apiKeys.list())} />;
}
