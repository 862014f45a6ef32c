-- Accounts (signed in with OpenID Connect, or created by the operator with `npm run keys`) and their
-- API keys. A key is stored only as the SHA-256 of the whole key; `prefix` is its public part, shown
-- in lists and used to find the row (then the hash is compared in constant time).
CREATE TABLE IF NOT EXISTS accounts (
  id            bigserial PRIMARY KEY,
  email         text,
  oidc_issuer   text,
  oidc_subject  text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT accounts_oidc_identity UNIQUE (oidc_issuer, oidc_subject)
);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_email_unique ON accounts (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE IF NOT EXISTS api_keys (
  id            bigserial PRIMARY KEY,
  account_id    bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  prefix        text NOT NULL UNIQUE,
  key_hash      text NOT NULL,
  name          text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id);
