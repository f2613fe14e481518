-- Tools served to models over MCP (src/mcp): each account's policy per tool, and the
-- confirmations already used (a sealed confirmation runs its tool once).
CREATE TABLE tool_policies (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- The effective name the model calls (slug with '-' as '_', '_', the tool's name).
  tool_name text NOT NULL,
  policy text NOT NULL CHECK (policy IN ('ask', 'allow', 'block')),
  set_by text REFERENCES users (id) ON DELETE SET NULL,
  set_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, tool_name)
);

CREATE TABLE tool_confirmations_used (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX tool_confirmations_used_expiry ON tool_confirmations_used (expires_at);

-- An account's tool catalog is memoized (src/cache/hostCache.ts): its policies and OAuth
-- connections bump the cache epoch like the tables of migration 0006.
CREATE TRIGGER tool_policies_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tool_policies
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
CREATE TRIGGER oauth_connections_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON oauth_connections
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
