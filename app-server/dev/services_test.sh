#!/usr/bin/env bash
# services.sh: a short `up --record` / `down --record` cycle (what test.sh and bench/run.sh do) leaves
# running the services a longer-lived `up` (what `make run` does) started, and a plain `down`
# (`make services-down`) still stops everything. Runs a second set of services on free ports with its
# own state directory, so the checkout's own services are never touched. Run by `make test`.
set -euo pipefail
DEV_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$DEV_DIR/../.." && pwd)"
source "$DEV_DIR/lib.sh"

# PostgreSQL is reused, never started here: from the environment or the checkout's services.env.
if [ -z "${DATABASE_URL:-}" ] && [ -f "$ROOT/.data/services.env" ]; then
    # shellcheck disable=SC1091
    source "$ROOT/.data/services.env"
fi
[ -n "${DATABASE_URL:-}" ] || { echo "services_test: run services.sh up first (needs DATABASE_URL)" >&2; exit 1; }

free_port() {
    local port="$1"
    while port_open "$port"; do port=$((port + 1)); done
    echo "$port"
}
export LOCALSTRIPE_PORT SMTP_PORT MAILDEV_WEB_PORT
LOCALSTRIPE_PORT="$(free_port 18520)"
SMTP_PORT="$(free_port 18530)"
MAILDEV_WEB_PORT="$(free_port 18540)"
SERVICES_STATE_DIR="$(mktemp -d)"
export SERVICES_STATE_DIR
services() { bash "$DEV_DIR/services.sh" "$@" 2>>"$SERVICES_STATE_DIR/services.out"; }
trap 'services down || true; rm -rf "$SERVICES_STATE_DIR"' EXIT

failures=0
check() {
    local what="$1"; shift
    if "$@"; then echo "  ok    $what"; else echo "  FAIL  $what"; failures=$((failures + 1)); fi
}
maildev_answers() { http_ok "http://127.0.0.1:$MAILDEV_WEB_PORT/api/healthz"; }
localstripe_answers() { http_ok "http://127.0.0.1:$LOCALSTRIPE_PORT/js.stripe.com/v3/"; }
both_stopped() { ! port_open "$MAILDEV_WEB_PORT" && ! port_open "$SMTP_PORT" && ! port_open "$LOCALSTRIPE_PORT"; }

echo "services_test: ports $LOCALSTRIPE_PORT, $SMTP_PORT, $MAILDEV_WEB_PORT"
services up --record "$SERVICES_STATE_DIR/long-lived"
check "the long-lived up records the services it started" \
    test "$(sort "$SERVICES_STATE_DIR/long-lived" | tr '\n' ' ')" = "localstripe maildev "

services up --record "$SERVICES_STATE_DIR/short"
check "a second up starts nothing and records nothing" test ! -s "$SERVICES_STATE_DIR/short"
services down --record "$SERVICES_STATE_DIR/short"
check "after the short run's down the mail catcher still answers" maildev_answers
check "after the short run's down the payment server still answers" localstripe_answers
check "the short run's record is removed" test ! -e "$SERVICES_STATE_DIR/short"

services down --record "$SERVICES_STATE_DIR/long-lived"
check "the long-lived run's down stops what it started" both_stopped

services up
services down
check "a plain down (make services-down) stops everything this checkout started" both_stopped

if [ "$failures" -ne 0 ]; then
    echo "services_test: $failures check(s) failed; services.sh said:" >&2
    cat "$SERVICES_STATE_DIR/services.out" >&2
    exit 1
fi
echo "services_test: all checks passed"
