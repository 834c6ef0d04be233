#!/usr/bin/env bash
# `make crash` (also a layer of `make test`): an app-server is killed (-9) after the payment provider confirmed a
# card payment and before the server wrote it; after a restart the sale must be paid within 60 s, with exactly one
# PaymentIntent at the provider. Then every webhook of the run is replayed twice, newest first, and must change
# nothing; finally `app-server reconcile` must find no difference. The steps are in crash.py.
#
# The provider is a copy of the local payment server (app-server/dev/localstripe_server.py) started for this run
# on CRASH_LOCALSTRIPE_PORT (8431): its `/_test/delay_next` hook holds the answer of the charge, and everything it
# holds is this run's. The shared one on 8420 is not touched. The app-server listens on CRASH_PORT (18191).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
APP_SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/app-server"
STRIPE_PORT="${CRASH_LOCALSTRIPE_PORT:-8431}"
PORT="${CRASH_PORT:-18191}"

bash app-server/dev/setup.sh >/dev/null || exit 1
STRIPE_PID=""
DB=""
STARTED="$ROOT/.data/run/started-by-crash.$$"
cleanup() {
    [ -n "$STRIPE_PID" ] && kill "$STRIPE_PID" 2>/dev/null && wait "$STRIPE_PID" 2>/dev/null
    [ -n "$DB" ] && drop_database "$DB"
    bash app-server/dev/services.sh down --record "$STARTED"
}
trap cleanup EXIT
bash app-server/dev/services.sh up --record "$STARTED" >/dev/null || exit 1
# shellcheck disable=SC1091
source "${SERVICES_STATE_DIR:-.data}/services.env"
mkdir -p .data/log  # the scenario's own logs (a test run keeps its services' logs elsewhere)
source app-server/dev/lib.sh

port_open "$STRIPE_PORT" && { echo "port $STRIPE_PORT is taken (set CRASH_LOCALSTRIPE_PORT)"; exit 1; }
port_open "$PORT" && { echo "port $PORT is taken (set CRASH_PORT)"; exit 1; }
STRIPE_BASE="http://127.0.0.1:$STRIPE_PORT"
.data/venv/bin/python app-server/dev/localstripe_server.py --port "$STRIPE_PORT" >.data/log/crash-localstripe.log 2>&1 &
STRIPE_PID=$!
cargo build --quiet -p app-server --bin app-server || exit 1
for _ in $(seq 1 60); do http_ok "$STRIPE_BASE/js.stripe.com/v3/" && break; sleep 0.5; done
http_ok "$STRIPE_BASE/js.stripe.com/v3/" || { echo "local payment server did not start:"; cat .data/log/crash-localstripe.log; exit 1; }

DB="crash_$(date +%s)_$$"
URL="$(create_demo_database "$DB")" || exit 1
: >.data/log/crash-app.log
.data/venv/bin/python app-server/dev/crash.py --app-server "$APP_SERVER" --database-url "$URL" --port "$PORT" \
    --stripe "$STRIPE_BASE" --stripe-key "$STRIPE_SECRET_KEY" --webhook-secret "$STRIPE_WEBHOOK_SECRET" \
    --log .data/log/crash-app.log || exit 1
DATABASE_URL="$URL" STRIPE_API_BASE="$STRIPE_BASE/" RUST_LOG=error "$APP_SERVER" reconcile | tail -n 1
