-- Tenancy (issue 46 item 8): a version is live for an account only when its source serves the
-- account (`sourceServesAccountSql` in src/store/integrations.ts), so every call's resolution reads
-- `source_accounts`. Its changes bump the host cache's epoch like the other tables a resolution
-- reads (migration 0006): a removed link drops cached resolutions on every instance.
CREATE TRIGGER source_accounts_cache_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON source_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_epoch();

-- What an account is served (the marketplace, the dashboard, removal by account) without a scan.
CREATE INDEX source_accounts_account ON source_accounts (account_id);
