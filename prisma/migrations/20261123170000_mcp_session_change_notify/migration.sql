-- Every instance caches the tool-endpoint sessions it has served (server/mcp/sessions.ts).
-- Ending a session, or any change to whose and where it is, or its deletion (a workspace's
-- cascade included) NOTIFYs the session id on commit, whoever made it, so every instance
-- forgets it. lastSeenAt and the other informative columns do not notify.
CREATE OR REPLACE FUNCTION herald_notify_mcp_session_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('herald_mcp_sessions', OLD."id"::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "McpSession_notify_change"
  AFTER UPDATE OF "endedAt", "keyId", "workspaceId", "protocolVersion" OR DELETE ON "McpSession"
  FOR EACH ROW EXECUTE FUNCTION herald_notify_mcp_session_change();
