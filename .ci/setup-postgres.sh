#!/usr/bin/env bash
# CI: Debian's PostgreSQL for tests/test_server_postgres.py (the test starts its own
# server with initdb + pg_ctl). Never fails the run: without PostgreSQL that test skips.
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "setup-postgres: PostgreSQL already installed ($(ls -d /usr/lib/postgresql/*/ | tr '\n' ' '))"
    exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-postgres: not root or no apt-get; the PostgreSQL server test will be skipped"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if timeout 600 apt-get update -qq && timeout 600 apt-get install -y -qq --no-install-recommends postgresql >/dev/null; then
    echo "setup-postgres: installed $(ls -d /usr/lib/postgresql/*/ 2>/dev/null | tr '\n' ' ')"
else
    echo "setup-postgres: could not install postgresql with apt-get; the PostgreSQL server test will be skipped"
fi
exit 0
