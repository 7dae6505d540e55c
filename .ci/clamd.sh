#!/usr/bin/env bash
# Starts a throw-away ClamAV daemon for the clamd test suite (test/jobs/clamd.test.ts) and prints
# the `export CLAMD_TEST_HOST=… CLAMD_TEST_PORT=…` line to eval. No freshclam, no network: the
# signature database is one .ndb file written here, holding the EICAR test signature (hex, so
# this script itself is not flagged), matched at any offset.
# Usage: eval "$(.ci/clamd.sh start DIR)"   …   .ci/clamd.sh stop DIR
set -euo pipefail
cmd="${1:-start}"
dir="$(mkdir -p "${2:-.tmp/clamd}" && cd "${2:-.tmp/clamd}" && pwd)"
port="${CLAMD_CI_PORT:-3310}"

stop() {
  if [ -f "$dir/clamd.pid" ]; then
    kill "$(cat "$dir/clamd.pid")" 2>/dev/null || true
    rm -f "$dir/clamd.pid"
    sleep 0.5
  fi
}
if [ "$cmd" = stop ]; then
  stop
  exit 0
fi
stop # a daemon left over by an earlier run of this script would hold the port

if ! command -v clamd >/dev/null && [ ! -x /usr/sbin/clamd ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clamav-daemon >"$dir/apt.log" 2>&1 \
      || { echo "echo 'clamav-daemon could not be installed (see $dir/apt.log): clamd suite skipped' >&2"; exit 0; }
  else
    echo "echo 'clamd is not installed: clamd suite skipped' >&2"
    exit 0
  fi
fi
CLAMD="$(command -v clamd || echo /usr/sbin/clamd)"

mkdir -p "$dir/db"
echo "Atrium.Test.EICAR:0:*:58354f2150254041505b345c505a58353428505e2937434329377d2445494341522d5354414e444152442d414e544956495255532d544553542d46494c452124482b482a" >"$dir/db/atrium-test.ndb"
cat >"$dir/clamd.conf" <<CONF
TCPSocket $port
TCPAddr 127.0.0.1
DatabaseDirectory $dir/db
PidFile $dir/clamd.pid
LogFile $dir/clamd.log
LogTime yes
Foreground no
StreamMaxLength 32M
CONF
# When started as root, clamd keeps running as root unless User is set; that is fine for a CI job.
"$CLAMD" --config-file="$dir/clamd.conf" >>"$dir/start.log" 2>&1 || { echo "echo 'clamd did not start (see $dir/clamd.log): clamd suite skipped' >&2"; exit 0; }
for _ in $(seq 1 60); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'zPING\0' >&3 && head -c 4 <&3 | grep -q PONG) 2>/dev/null; then
    echo "export CLAMD_TEST_HOST=127.0.0.1 CLAMD_TEST_PORT=$port"
    exit 0
  fi
  sleep 0.5
done
echo "echo 'clamd did not answer PING (see $dir/clamd.log): clamd suite skipped' >&2"
