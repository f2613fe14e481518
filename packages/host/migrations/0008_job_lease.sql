-- A claim also takes back running jobs whose lease expired (events/jobs.ts `claimJobs`, and
-- `failAbandonedJobs`). Read through jobs_ready (status, run_at), that branch visited every running
-- row and every index entry left by rows that had been running (each claim and finish is an update
-- that moves the row): thousands per claim while a minute's schedule runs worked off, though none
-- was expired. This index holds running rows by lease end, so the branch reads only expired ones.
CREATE INDEX jobs_lease ON jobs (locked_until) WHERE status = 'running';
-- Nothing else read jobs_ready, which every insert, claim and finish wrote to, and which held every
-- finished job until it was deleted.
DROP INDEX jobs_ready;
