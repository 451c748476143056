-- Every instance caches API keys it has checked (server/auth/key-cache.ts). Any change that
-- can turn a key away (revocation, expiry, scopes, its secret or workspace) or its deletion
-- NOTIFYs the key's prefix on commit, whoever made it, so every instance forgets the key.
-- lastUsedAt and the other informative columns do not notify.
CREATE OR REPLACE FUNCTION herald_notify_api_key_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('herald_api_keys', OLD."prefix");
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "ApiKey_notify_change"
  AFTER UPDATE OF "revokedAt", "expiresAt", "scopes", "hash", "prefix", "workspaceId" OR DELETE ON "ApiKey"
  FOR EACH ROW EXECUTE FUNCTION herald_notify_api_key_change();
