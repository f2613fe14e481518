-- Host events: webhook deliveries and schedule runs in `jobs`, and the scheduler's marks.
-- The raw webhook body (UTF-8 JSON, kept byte for byte) and what ran, for the delivery/run log.
ALTER TABLE jobs ADD COLUMN version_id text;
ALTER TABLE jobs ADD COLUMN body text;
ALTER TABLE jobs ADD COLUMN started_at timestamptz;
ALTER TABLE jobs ADD COLUMN duration_ms integer;
CREATE INDEX jobs_log ON jobs (integration_slug, account_id, created_at);

-- Up to which minute (UTC) the scheduler has considered a schedule for an account: the row lock
-- on it makes one instance fire each cron minute, and a gap after downtime fires once.
CREATE TABLE schedule_marks (
  integration_slug text NOT NULL,
  schedule_id text NOT NULL,
  account_id text NOT NULL,
  last_minute timestamptz NOT NULL,
  PRIMARY KEY (integration_slug, schedule_id, account_id)
);
