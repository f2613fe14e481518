-- The worker claims the oldest queued jobs a batch at a time (events/jobs.ts `claimJobs`). In this
-- index's order a claim reads only the rows it takes, even when thousands share one run_at and
-- created_at (one minute's schedule runs); without it every claim sorted the whole ready queue.
CREATE INDEX jobs_queued ON jobs (run_at, created_at) WHERE status = 'queued';
