import { NetworksSetup } from '../_components/settings/networks-setup';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function NetworksPage() {
  const caller = await staffCaller();
  return <NetworksSetup initial={await prefetch(() => caller.networks.overview())} />;
}
