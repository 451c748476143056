import { mcpUrl, setupSnippets, toolsetChoices } from '@/server/mcp/setup';
import { Assistant } from '../_components/automation/assistant';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function AssistantPage() {
  const caller = await staffCaller();
  const [proposals, policy] = await Promise.all([
    prefetch(() => caller.proposals.list({ status: 'staged', limit: 50 })),
    prefetch(() => caller.proposals.policy()),
  ]);
  return <Assistant initial={{ proposals, policy, snippets: setupSnippets(), setup: { url: mcpUrl(), toolsets: toolsetChoices() } }} />;
}
