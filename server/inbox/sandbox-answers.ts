// The demo networks' memory of review answers, in the database (SandboxReceipt rows keyed
// `review-reply:{review}`), lent to the sandbox reviews client: a demo network keeps the answer
// a member sent, changed or took down, as a real one does, whichever process reads it next.
import { db } from '@/server/db/client';
import type { SandboxAnswers } from '@/server/platforms/conversations';

const KEY = 'review-reply:';

export const sandboxAnswers: SandboxAnswers = {
  async list(connectionId) {
    const rows = await db.sandboxReceipt.findMany({ where: { connectionId, idempotencyKey: { startsWith: KEY } } });
    return new Map(rows.map((r) => [r.idempotencyKey.slice(KEY.length), { id: r.postedId, text: r.text ?? '', at: r.receivedAt }]));
  },
  async put(connectionId, reviewId, answer) {
    const key = { connectionId, idempotencyKey: `${KEY}${reviewId}` };
    await db.sandboxReceipt.upsert({
      where: { connectionId_idempotencyKey: key },
      create: { ...key, postedId: answer.id, text: answer.text },
      update: { postedId: answer.id, text: answer.text, receivedAt: new Date() },
    });
  },
};
