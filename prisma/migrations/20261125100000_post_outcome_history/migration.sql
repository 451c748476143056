-- A post's delivery history is read from its outcome events (post.published, post.failed),
-- which the outbox keeps: server/posts/delivery-history.ts looks them up by post.
CREATE INDEX "OutboxEvent_post_outcomes_idx" ON "OutboxEvent" ("workspaceId", (("data" ->> 'postId')), "createdAt")
  WHERE "type" IN ('post.published', 'post.failed');
