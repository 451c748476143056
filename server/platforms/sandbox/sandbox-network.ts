// The memory of the demo networks: what each demo account's "network" received. A real network
// keeps a post it accepted whatever happens to Herald; so does a demo network, through this port
// (delivery lends a store backed by the database: server/posts/delivery/sandbox-receipts.ts).
// The demo publisher records a post here at the moment the demo network accepts it, before its
// answer travels back, so a crash in between leaves a post Herald can find by asking, as on a
// real network; the demo reconciler asks here.

export interface SandboxReceipt {
  connectionId: string;
  /** The target's id, as the publish handed it (every attempt of a target hands the same). */
  idempotencyKey: string;
  postedId: string;
  permalink: string | null;
}

export interface SandboxNetwork {
  /** Records a post the demo network accepted; a second post with the same key keeps the first. */
  receive(receipt: SandboxReceipt): Promise<SandboxReceipt>;
  find(connectionId: string, idempotencyKey: string): Promise<SandboxReceipt | null>;
}

/** A demo network in memory, for a publish nobody keeps (tests of the publisher, previews). */
export function memorySandboxNetwork(): SandboxNetwork {
  const rows = new Map<string, SandboxReceipt>();
  const key = (connectionId: string, idempotencyKey: string) => `${connectionId}|${idempotencyKey}`;
  return {
    async receive(receipt) {
      const k = key(receipt.connectionId, receipt.idempotencyKey);
      if (!rows.has(k)) rows.set(k, receipt);
      return rows.get(k)!;
    },
    async find(connectionId, idempotencyKey) {
      return rows.get(key(connectionId, idempotencyKey)) ?? null;
    },
  };
}
