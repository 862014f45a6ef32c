-- Sign-in sessions of the /account page. The cookie carries a random id (HMAC-signed); the table
-- keeps only its SHA-256, so a copy of the table cannot be replayed as cookies.
CREATE TABLE IF NOT EXISTS sessions (
  id_hash     text PRIMARY KEY,
  account_id  bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  csrf_token  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at);
