import { Workflows } from '../_components/automation/workflows';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function WorkflowsPage() {
  const caller = await staffCaller();
  return <Workflows initial={await prefetch(() => caller.workflows.runs({ limit: 30 }))} />;
}
