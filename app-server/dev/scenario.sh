# Sourced by the payment scenarios that need a provider of their own (crash.sh, lifecycle.sh). Before sourcing, set
# SCENARIO (the name: logs, database, records), STRIPE_PORT and PORT, and the names of the variables that move them
# (STRIPE_PORT_VAR, PORT_VAR) for the messages. It sets up, starts the shared services (stopping at exit only what
# it started), starts a copy of the local payment server on STRIPE_PORT for this run alone (everything it holds is
# this run's; the shared one is not touched), builds the app-server, and makes a fresh demo database. Afterwards:
# APP_SERVER, STRIPE_BASE, URL (the database), LOG (the app-server's log) and the STRIPE_* settings of services.env.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
APP_SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/app-server"

bash app-server/dev/setup.sh >/dev/null || exit 1
STRIPE_PID=""
DB=""
STARTED="$ROOT/.data/run/started-by-$SCENARIO.$$"
scenario_cleanup() {
    [ -n "$STRIPE_PID" ] && kill "$STRIPE_PID" 2>/dev/null && wait "$STRIPE_PID" 2>/dev/null
    [ -n "$DB" ] && drop_database "$DB"
    bash app-server/dev/services.sh down --record "$STARTED"
}
trap scenario_cleanup EXIT
bash app-server/dev/services.sh up --record "$STARTED" >/dev/null || exit 1
# shellcheck disable=SC1091
source "${SERVICES_STATE_DIR:-.data}/services.env"
mkdir -p .data/log  # the scenario's own logs (a test run keeps its services' logs elsewhere)
source app-server/dev/lib.sh

port_open "$STRIPE_PORT" && { echo "port $STRIPE_PORT is taken (set $STRIPE_PORT_VAR)"; exit 1; }
port_open "$PORT" && { echo "port $PORT is taken (set $PORT_VAR)"; exit 1; }
STRIPE_BASE="http://127.0.0.1:$STRIPE_PORT"
.data/venv/bin/python app-server/dev/localstripe_server.py --port "$STRIPE_PORT" >".data/log/$SCENARIO-localstripe.log" 2>&1 &
STRIPE_PID=$!
cargo build --quiet -p app-server --bin app-server || exit 1
for _ in $(seq 1 60); do http_ok "$STRIPE_BASE/js.stripe.com/v3/" && break; sleep 0.5; done
http_ok "$STRIPE_BASE/js.stripe.com/v3/" || {
    echo "local payment server did not start:"
    cat ".data/log/$SCENARIO-localstripe.log"
    exit 1
}

DB="${SCENARIO}_$(date +%s)_$$"
URL="$(create_demo_database "$DB")" || exit 1
LOG=".data/log/$SCENARIO-app.log"
: >"$LOG"
