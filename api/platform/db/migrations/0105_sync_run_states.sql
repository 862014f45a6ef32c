-- A dataset's attempt is recorded when it starts ('running', no finished_at yet) and completed when it
-- ends, so every instance sharing the database can tell "loading now, since when" from "never loaded"
-- and "last load failed". An attempt left 'running' by a process that died becomes 'interrupted' at
-- the next sync. `reason` is the failure in one sentence for readers; `message` keeps the detail.
ALTER TABLE sync_runs DROP CONSTRAINT IF EXISTS sync_runs_status_check;
ALTER TABLE sync_runs ADD CONSTRAINT sync_runs_status_check CHECK (status IN ('running', 'ok', 'failed', 'skipped', 'interrupted'));
ALTER TABLE sync_runs ALTER COLUMN finished_at DROP NOT NULL;
ALTER TABLE sync_runs ADD COLUMN IF NOT EXISTS reason text;
