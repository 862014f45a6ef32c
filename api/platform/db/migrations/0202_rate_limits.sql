-- Counters of the shared PostgreSQL rate-limit store (RATE_LIMIT_STORE=postgres), in the layout
-- rate-limiter-flexible's RateLimiterPostgres expects; created here so instances starting together
-- never race to create it. `expire` is epoch milliseconds.
CREATE TABLE IF NOT EXISTS rate_limits (
  key     varchar(255) PRIMARY KEY,
  points  integer NOT NULL DEFAULT 0,
  expire  bigint
);
