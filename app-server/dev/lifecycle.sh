#!/usr/bin/env bash
# `make lifecycle` (also a layer of `make test`): the end of three campaigns on a fresh database with the local
# payment server. An all-or-nothing project fails with a card and a bank-transfer supporter (both refunded in full;
# the transfer's refund waits for the supporter's account, given here as the provider's mail asks), one succeeds
# thanks to a transfer still pending at its end, and an all-in project succeeds after a partial refund. The server
# is killed (-9) in the middle of the first close and restarted: nothing is refunded or decided twice. It prints
# per project the result, the refunds made and pending and the payout statement, then `app-server reconcile`'s
# `differences: 0`. The steps are in lifecycle.py.
#
# Like crash.sh, it runs its own copy of the local payment server (LIFECYCLE_LOCALSTRIPE_PORT, 8432) and its own
# app-server (LIFECYCLE_PORT, 18192).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
APP_SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/app-server"
STRIPE_PORT="${LIFECYCLE_LOCALSTRIPE_PORT:-8432}"
PORT="${LIFECYCLE_PORT:-18192}"

bash app-server/dev/setup.sh >/dev/null || exit 1
STRIPE_PID=""
DB=""
STARTED="$ROOT/.data/run/started-by-lifecycle.$$"
cleanup() {
    [ -n "$STRIPE_PID" ] && kill "$STRIPE_PID" 2>/dev/null && wait "$STRIPE_PID" 2>/dev/null
    [ -n "$DB" ] && drop_database "$DB"
    bash app-server/dev/services.sh down --record "$STARTED"
}
trap cleanup EXIT
bash app-server/dev/services.sh up --record "$STARTED" >/dev/null || exit 1
# shellcheck disable=SC1091
source "${SERVICES_STATE_DIR:-.data}/services.env"
mkdir -p .data/log
source app-server/dev/lib.sh

port_open "$STRIPE_PORT" && { echo "port $STRIPE_PORT is taken (set LIFECYCLE_LOCALSTRIPE_PORT)"; exit 1; }
port_open "$PORT" && { echo "port $PORT is taken (set LIFECYCLE_PORT)"; exit 1; }
STRIPE_BASE="http://127.0.0.1:$STRIPE_PORT"
.data/venv/bin/python app-server/dev/localstripe_server.py --port "$STRIPE_PORT" >.data/log/lifecycle-localstripe.log 2>&1 &
STRIPE_PID=$!
cargo build --quiet -p app-server --bin app-server || exit 1
for _ in $(seq 1 60); do http_ok "$STRIPE_BASE/js.stripe.com/v3/" && break; sleep 0.5; done
http_ok "$STRIPE_BASE/js.stripe.com/v3/" || { echo "local payment server did not start:"; cat .data/log/lifecycle-localstripe.log; exit 1; }

DB="lifecycle_$(date +%s)_$$"
URL="$(create_demo_database "$DB")" || exit 1
: >.data/log/lifecycle-app.log
.data/venv/bin/python app-server/dev/lifecycle.py --app-server "$APP_SERVER" --database-url "$URL" --port "$PORT" \
    --stripe "$STRIPE_BASE" --stripe-key "$STRIPE_SECRET_KEY" --webhook-secret "$STRIPE_WEBHOOK_SECRET" \
    --log .data/log/lifecycle-app.log || exit 1
OUT="$(DATABASE_URL="$URL" STRIPE_API_BASE="$STRIPE_BASE/" PAYOUT_TRANSFER_FEE=440 RUST_LOG=error "$APP_SERVER" reconcile)" || { echo "$OUT"; exit 1; }
echo "$OUT" | grep -E "payout statement|^ +[0-9]+ .*(精算|Difference)" | head -n 20
echo "$OUT" | tail -n 1
[ "$(echo "$OUT" | tail -n 1)" = "differences: 0" ]
