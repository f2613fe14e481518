-- The host cache's epoch (src/cache/hostCache.ts): one counter every instance polls, bumped in
-- the same transaction as any change to a table an action call's resolution reads (sessions,
-- users, accounts, memberships, integrations, versions, activations), so a committed change is
-- seen by every instance within the cache's bound. Statement triggers: one bump per statement.
CREATE TABLE cache_epoch (
  id integer PRIMARY KEY CHECK (id = 1),
  epoch bigint NOT NULL
);
INSERT INTO cache_epoch (id, epoch) VALUES (1, 0);

-- One line: the migration runner splits statements on ";" at line ends.
CREATE FUNCTION bump_cache_epoch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE cache_epoch SET epoch = epoch + 1 WHERE id = 1; RETURN NULL; END $$;

CREATE TRIGGER sessions_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
CREATE TRIGGER users_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
CREATE TRIGGER accounts_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
CREATE TRIGGER memberships_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
CREATE TRIGGER integrations_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON integrations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
CREATE TRIGGER versions_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON versions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();
CREATE TRIGGER activations_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON activations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();

-- Action rate limits are counted in memory and reconciled (src/rateLimit.ts): the first refusal
-- of a bucket's window is claimed here so that one instance logs it.
ALTER TABLE rate_limits ADD COLUMN refusal_logged boolean NOT NULL DEFAULT false;
