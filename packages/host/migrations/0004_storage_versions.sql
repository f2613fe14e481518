-- Storage concurrency (DESIGN.md section 7): every stored value carries a version, and a call's
-- writes are saved only if every key it read still has the version it read (checked in the
-- commit transaction, see capabilities/createHostCapabilities.ts). Versions come from one
-- sequence, so a key deleted and written again never returns to a version a call already saw.
-- An absent key is version 0.
CREATE SEQUENCE storage_versions;
ALTER TABLE storage ADD COLUMN version bigint NOT NULL DEFAULT nextval('storage_versions');

-- Conflict retries of a webhook delivery or schedule run: they cost no attempt, up to their own
-- bound (events/runJob.ts), and the run log shows how many there were.
ALTER TABLE jobs ADD COLUMN conflicts integer NOT NULL DEFAULT 0;
