-- Webhooks of keyed accounts (api/webhooks): an HTTPS URL told of each new dataset version, signed
-- with the hook's own secret (kept as given: the server signs with it; it is shown to its owner once).
-- `failures` counts failed attempts since the last success; at the limit the hook is disabled.
CREATE TABLE IF NOT EXISTS webhooks (
  id               bigserial PRIMARY KEY,
  account_id       bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url              text NOT NULL,
  secret           text NOT NULL,
  datasets         text[] NOT NULL DEFAULT '{}',
  description      text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  failures         integer NOT NULL DEFAULT 0,
  disabled_at      timestamptz,
  disabled_reason  text
);
CREATE INDEX IF NOT EXISTS webhooks_account ON webhooks (account_id);

-- The queue and the log at once: one row per hook and dataset version, worked by any instance
-- (`leased_until` keeps two from sending the same attempt), kept 30 days. `attempts` holds each
-- attempt's time, status, error and duration.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id               bigserial PRIMARY KEY,
  webhook_id       bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  version_id       bigint NOT NULL REFERENCES dataset_versions (id) ON DELETE CASCADE,
  state            text NOT NULL DEFAULT 'pending',
  attempts         jsonb NOT NULL DEFAULT '[]',
  next_attempt_at  timestamptz,
  leased_until     timestamptz,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT webhook_deliveries_once UNIQUE (webhook_id, version_id)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_hook ON webhook_deliveries (webhook_id, id DESC);
