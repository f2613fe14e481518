-- Host-driven OAuth refresh and connection health (src/oauth/refreshConnection.ts): the token set
-- (access, refresh, expiry, scope) kept encrypted on the connection row (SecretBox, bound to the
-- integration and account), and the connection's health: its state, last success and failure,
-- when it refreshes next and since when it has been failing.
ALTER TABLE oauth_connections
  ADD COLUMN tokens text,
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN state text NOT NULL DEFAULT 'healthy'
    CHECK (state IN ('healthy', 'refreshing', 'backoff', 'exhausted', 'revoked')),
  ADD COLUMN last_success_at timestamptz,
  ADD COLUMN last_failure_at timestamptz,
  ADD COLUMN last_failure_reason text,
  ADD COLUMN next_refresh_at timestamptz,
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN failures integer NOT NULL DEFAULT 0,
  ADD COLUMN refreshed_at timestamptz;

-- The scheduler's sweep reads the connections due for a refresh in time order.
CREATE INDEX oauth_connections_next_refresh ON oauth_connections (next_refresh_at)
  WHERE next_refresh_at IS NOT NULL;

-- A refresh rewrites the row every hour or so per connection: only a change of what the tool
-- catalog reads (who connected, the scope) bumps the cache epoch (migration 0011), not a refresh.
DROP TRIGGER oauth_connections_cache_epoch ON oauth_connections;
CREATE TRIGGER oauth_connections_cache_epoch
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF user_id, scope, connected_at ON oauth_connections
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
