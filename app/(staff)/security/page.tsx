import { Security } from '../_components/settings/security';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function SecurityPage() {
  const caller = await staffCaller();
  const [overview, sessions] = await Promise.all([prefetch(() => caller.security.overview()), prefetch(() => caller.security.sessions())]);
  return <Security initial={{ overview, sessions }} />;
}
