// Settling an interrupted publish to a demo account the way its network would: a demo account
// of a network that can be asked (or is idempotent) answers from what the demo network received
// (sandbox-network.ts): found with the post it made, or absent; one of a network that cannot be
// asked answers unknown with that network's reason, so the demo shows all three outcomes.
import { catalogueEntry } from '../catalogue';
import type { Reconciler } from '../reconcile';

export const sandboxReconciler: Reconciler = {
  async reconcile(connection, intent, ctx) {
    const capability = catalogueEntry(connection.platform).reconcile;
    if ('none' in capability) return { outcome: 'unknown', evidence: capability.none };
    if (!ctx.sandbox) return { outcome: 'unknown', evidence: 'The demo network’s memory is not available here' };
    const receipt = await ctx.sandbox.find(connection.id, intent.idempotencyKey);
    const network = catalogueEntry(connection.platform).label;
    return receipt
      ? {
          outcome: 'found',
          result: { postedId: receipt.postedId, permalink: receipt.permalink },
          evidence: `The demo ${network} account has post ${receipt.postedId}, made by the interrupted attempt`,
        }
      : { outcome: 'absent', evidence: `The demo ${network} account has no post from this attempt` };
  },
};
