// How an interrupted publish to each network is settled (server/platforms/reconcile.ts): part of
// each network's catalogue entry (`reconcile`), so delivery, the docs and the staff app read
// one table. `idempotent`: sending again with the same key cannot duplicate (how, and the page
// that says so); `ask`: the network can be asked what happened (the call, and the page); `none`:
// it cannot be asked, and why (a person decides, with what Herald recorded).
export type ReconcileCapability = { idempotent: string; docs: string } | { ask: string; docs: string } | { none: string };

export type ReconcileClass = 'idempotent' | 'ask' | 'none';

export function reconcileClass(capability: ReconcileCapability): ReconcileClass {
  return 'idempotent' in capability ? 'idempotent' : 'ask' in capability ? 'ask' : 'none';
}
