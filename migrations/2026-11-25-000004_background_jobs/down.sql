DROP INDEX background_jobs_kind_created_idx;
DROP INDEX background_jobs_running_idx;
DROP INDEX background_jobs_queued_idx;
DROP TABLE background_jobs;
