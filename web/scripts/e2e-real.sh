#!/usr/bin/env bash
# The browser checks (scripts/e2e.mjs) against a real `houserules serve`: builds the binary when
# needed (debug; build.rs embeds web/dist), starts it on a free loopback port with a temporary
# SQLite file, waits for /healthz, runs the checks, and stops the server by its PID.
#   web/scripts/e2e-real.sh            # extra arguments go to e2e.mjs
#   HOUSERULES_BIN=target/release/houserules web/scripts/e2e-real.sh
#   E2E_PREVIEW=1 HOUSERULES_BIN=… web/scripts/e2e-real.sh
# The binary serves the web app it was built with (rust-embed, debug builds included). With
# E2E_PREVIEW=1 the pages come from this tree's web/dist instead (`npm run build` first): `vite
# preview` serves them and proxies /api (WebSockets included) to the server, so a web change is
# tested against a binary built from another tree without building Rust.
set -euo pipefail
web="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$web/.." && pwd)"
bin="${HOUSERULES_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$root" && cargo build -p houserules)
  bin="$root/target/debug/houserules"
fi
tmp="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
"$bin" serve --addr "127.0.0.1:$port" --db "sqlite:$tmp/games.db" >"$tmp/server.log" 2>&1 &
pid=$!
# Not this shell's job any more: the restart check's SIGKILL is expected, not reported as "Killed".
disown "$pid"
# The restart check (e2e.mjs) kills this server by the PID in this file and starts it again with
# the same arguments, writing the new PID here; the cleanup stops whichever runs.
echo "$pid" >"$tmp/server.pid"
preview_pid=""
cleanup() {
  local p
  if [ -n "$preview_pid" ]; then kill "$preview_pid" 2>/dev/null || true; fi
  p="$(cat "$tmp/server.pid" 2>/dev/null || echo "$pid")"
  kill "$p" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  rm -rf "$tmp"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
  if curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "e2e-real: houserules serve exited:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "e2e-real: no /healthz on :$port after 10 s" >&2; cat "$tmp/server.log" >&2; exit 1; }
base="http://127.0.0.1:$port"
if [ "${E2E_PREVIEW:-}" = 1 ]; then
  [ -f "$web/dist/index.html" ] || { echo "e2e-real: E2E_PREVIEW=1 needs web/dist (npm run build)" >&2; exit 1; }
  pport="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
  (cd "$web" && HOUSERULES_API="$base" exec node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port "$pport" --strictPort) >"$tmp/preview.log" 2>&1 &
  preview_pid=$!
  for _ in $(seq 1 100); do
    if curl -sf "http://127.0.0.1:$pport/api/rules" >/dev/null; then break; fi
    sleep 0.1
  done
  curl -sf "http://127.0.0.1:$pport/api/rules" >/dev/null || { echo "e2e-real: vite preview on :$pport did not answer" >&2; cat "$tmp/preview.log" >&2; exit 1; }
  base="http://127.0.0.1:$pport"
fi
status=0
E2E_SERVER_BASE="http://127.0.0.1:$port" E2E_SERVER_PIDFILE="$tmp/server.pid" E2E_SERVER_CMD="$(printf '%s\n' "$bin" serve --addr "127.0.0.1:$port" --db "sqlite:$tmp/games.db")" \
  E2E_SERVER_LOG="$tmp/server.log" node "$web/scripts/e2e.mjs" --base "$base" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "e2e-real: server log (last 40 lines):" >&2
  tail -n 40 "$tmp/server.log" >&2
fi
exit "$status"
