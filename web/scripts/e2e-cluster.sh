#!/usr/bin/env bash
# The web app through a cluster (issue 24): scripts/cluster starts 3 nodes of `houserules serve
# --cluster` (a Postgres database of their own, the NATS server on 127.0.0.1:4222) behind Debian's
# haproxy on a free loopback port; scripts/e2e-cluster.mjs opens both seats' pages through haproxy,
# kills the node that owns the game (SIGKILL, by the process id scripts/cluster wrote) and checks
# that both pages reconnect through haproxy to the survivors and the game plays on. Skips (exit 0,
# with a message) without haproxy, Postgres (psql) or NATS. Stops the cluster and drops the database.
#   web/scripts/e2e-cluster.sh
#   HOUSERULES_BIN=target/release/houserules web/scripts/e2e-cluster.sh
set -euo pipefail
web="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$web/.." && pwd)"
command -v haproxy >/dev/null || { echo "e2e-cluster: skipped: haproxy is not installed (apt-get install -y haproxy)"; exit 0; }
(exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null || { echo "e2e-cluster: skipped: no NATS on 127.0.0.1:4222"; exit 0; }
psql_() { psql -h 127.0.0.1 -p 5432 -U postgres -d test -qAtc "$1"; }
db="houserules_e2e_cluster_$$"
psql_ "CREATE DATABASE $db" >/dev/null 2>&1 || { echo "e2e-cluster: skipped: no Postgres at 127.0.0.1:5432 (psql, user postgres)"; exit 0; }
bin="${HOUSERULES_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$root" && cargo build -p houserules)
  bin="$root/target/debug/houserules"
fi
tmp="$(mktemp -d)"
# haproxy on PORT, the nodes on PORT+1..PORT+3: a port whose next three are free too.
port="$(python3 -c '
import socket
while True:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
    try:
        for q in range(p, p + 4):
            t = socket.socket(); t.bind(("127.0.0.1", q)); t.close()
        print(p); break
    except OSError:
        pass
')"
BIN="$bin" DIR="$tmp" HOUSERULES_DB="postgres://postgres@127.0.0.1:5432/$db" \
  "$root/scripts/cluster" 3 "$port" >"$tmp/cluster.out" 2>&1 &
cluster=$!
cleanup() {
  # SIGTERM: scripts/cluster drains the nodes and stops haproxy.
  kill "$cluster" 2>/dev/null || true
  for _ in $(seq 1 150); do kill -0 "$cluster" 2>/dev/null || break; sleep 0.1; done
  psql_ "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
for _ in $(seq 1 600); do
  grep -q "^cluster of 3 nodes" "$tmp/cluster.out" 2>/dev/null && break
  kill -0 "$cluster" 2>/dev/null || break
  sleep 0.1
done
grep -q "^cluster of 3 nodes" "$tmp/cluster.out" || { echo "e2e-cluster: the cluster did not start:" >&2; cat "$tmp/cluster.out" >&2; exit 1; }
status=0
E2E_CLUSTER_DIR="$tmp" E2E_CLUSTER_DB="$db" node "$web/scripts/e2e-cluster.mjs" --base "http://127.0.0.1:$port" || status=$?
if [ "$status" -ne 0 ]; then
  for f in "$tmp"/n*.log "$tmp/haproxy.log"; do
    echo "e2e-cluster: $f (last 15 lines):" >&2
    tail -n 15 "$f" >&2 || true
  done
fi
exit "$status"
