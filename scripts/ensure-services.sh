#!/usr/bin/env bash
# Starts the local services the test suite talks to when they are not running: PostgreSQL on
# 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (Debian packages), and installs Debian's Chromium for
# the browser tests. Used by .ci/run; safe to run again.
set -u

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "ensure-services: starting PostgreSQL" >&2
  for version in $(ls /etc/postgresql 2>/dev/null); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432 >&2 || { echo "ensure-services: PostgreSQL is not reachable on 127.0.0.1:5432" >&2; exit 1; }

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "ensure-services: starting Redis" >&2
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "ensure-services: installing Debian's chromium for the browser tests" >&2
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "ensure-services: chromium could not be installed; browser tests will fail" >&2
  else
    echo "ensure-services: run 'sudo apt-get install chromium' for the browser tests" >&2
  fi
fi
exit 0
