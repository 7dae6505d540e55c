#!/usr/bin/env bash
# A newcomer, as root, clones into a private directory (mktemp -d, mode 0700; or
# /root/…), runs `npm ci` and starts the service. PostgreSQL refuses to run as root, so the
# embedded one runs as another user that cannot enter that directory (docs/adr/0012). This clones
# the repository's HEAD into a fresh mktemp -d directory, installs from the lockfile, and checks
# that `atrium serve` answers /readyz 200 with the default ./data and with a data directory of
# mode 0700; then that SIGTERM stops it with exit 0. Before that it runs, from the same checkout,
# the suite's tests that start processes as other users (PostgreSQL as its own user, a child as
# `nobody`), which those users cannot read the checkout for.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server"; wait "$server" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
[ "$(stat -c %a "$work")" = 700 ] || { echo "mktemp -d did not make a 0700 directory"; exit 1; }
[ "$(id -u)" = 0 ] || echo "(not root: this checks the non-root path only)"
git clone -q "$repo" "$work/atrium"
cd "$work/atrium"
npm ci --no-audit --no-fund >"$work/npm-ci.log" 2>&1 || { tail -30 "$work/npm-ci.log"; exit 1; }

echo "private checkout: the tests that run processes as other users"
(cd packages/server && npm test -- test/ops/embedded-*.test.ts test/ops/backup.test.ts test/ops/outage.test.ts test/cli/embedded.test.ts) 2>&1 | tee "$work/tests.log"
grep -qE "^ℹ fail 0$" "$work/tests.log" || { echo "private checkout: the tests printed no summary"; exit 1; }
if [ "$(id -u)" = 0 ]; then
  grep -q "✔ as a non-root user: permission denied" "$work/tests.log" || { echo "private checkout: the test as user nobody did not pass"; exit 1; }
fi

serve_and_check() { # $1: label; $2: data directory, or empty for the default ./data
  local log="$work/serve.log" url="" code
  if [ -n "$2" ]; then
    ATRIUM_DATA_DIR="$2" node packages/server/bin/atrium.js serve --port 0 >"$log" 2>&1 &
  else
    env -u ATRIUM_DATA_DIR node packages/server/bin/atrium.js serve --port 0 >"$log" 2>&1 &
  fi
  server=$!
  for _ in $(seq 1 120); do
    url="$(grep -oE 'ready in [0-9]+ ms on http://[0-9.]+:[0-9]+' "$log" | grep -oE 'http://[0-9.]+:[0-9]+' || true)"
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 1
  done
  code="$( [ -n "$url" ] && curl -s -o /dev/null -w '%{http_code}' "$url/readyz" || echo none)"
  kill -TERM "$server" 2>/dev/null || true
  local status=0
  wait "$server" || status=$?
  server=""
  if [ "$code" != 200 ] || [ "$status" != 0 ]; then
    echo "private checkout, $1: /readyz $code, exit $status"; cat "$log"; exit 1
  fi
  echo "private checkout, $1: /readyz 200, stopped with exit 0"
}

serve_and_check "default ./data" ""
mkdir -m 0700 "$work/private-data"
serve_and_check "0700 data directory" "$work/private-data"
