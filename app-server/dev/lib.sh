# Shared helpers for setup.sh and services.sh (sourced, not run).

DEV_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$DEV_DIR/../.." && pwd)"
DATA_DIR="$ROOT/.data"
VENV_DIR="$DATA_DIR/venv"
RUN_DIR="$DATA_DIR/run"
LOG_DIR="$DATA_DIR/log"

log() { printf '%s: %s\n' "$(basename "$0" .sh)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Does something accept TCP connections on 127.0.0.1:$1?
port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Does a PostgreSQL server answer on 127.0.0.1:$1?
pg_answers() {
    if command -v pg_isready >/dev/null 2>&1; then
        pg_isready -q -h 127.0.0.1 -p "$1" -t 3
    else
        port_open "$1"
    fi
}

# The directory holding initdb/pg_ctl/postgres (newest installed version), or nothing.
pg_bin_dir() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v initdb)")"
        return 0
    fi
    return 1
}

# GET $1 succeeds (2xx)?
http_ok() {
    if command -v curl >/dev/null 2>&1; then
        curl -fsS -o /dev/null --max-time 3 "$1" 2>/dev/null
    else
        python3 - "$1" <<'EOF' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=3).read()
EOF
    fi
}

# register_payment_webhook <name> <app port>: the local payment server sends its signed events to the app-server
# on <app port> (registered under <name>; registering again replaces it). Needs STRIPE_* from services.env.
register_payment_webhook() {
    curl -fsS -u "${STRIPE_SECRET_KEY}:" "${STRIPE_API_BASE%/}/_config/webhooks/$1" \
        -d "url=http://127.0.0.1:$2/v1/stripe/webhook" -d "secret=${STRIPE_WEBHOOK_SECRET}" >/dev/null
}

# remove_payment_webhook <name>: the local payment server stops posting to it (a stopped test server's hook).
remove_payment_webhook() {
    curl -fsS -X DELETE -u "${STRIPE_SECRET_KEY}:" "${STRIPE_API_BASE%/}/_config/webhooks/$1" >/dev/null || true
}

# The scenario scripts (race.sh, crash.sh): a fresh database and app-servers of their own. Need APP_SERVER (the
# binary) and DATABASE_ADMIN_URL from services.env.

# create_demo_database <name>: creates, migrates and loads the demo data into database <name>; prints its URL.
create_demo_database() {
    local url="${DATABASE_ADMIN_URL%/*}/$1"
    psql "$DATABASE_ADMIN_URL" -qc "CREATE DATABASE $1" >/dev/null || return 1
    DATABASE_URL="$url" RUST_LOG=warn "$APP_SERVER" migrate >/dev/null || return 1
    DATABASE_URL="$url" RUST_LOG=warn "$APP_SERVER" seed-demo >/dev/null || return 1
    echo "$url"
}

# drop_database <name>: drops it, closing what is still connected.
drop_database() {
    psql "$DATABASE_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" >/dev/null 2>&1
}

# wait_for_app_server <port> <pid> <log>: until /readyz answers (60 s at most); fails with the log if it exits.
wait_for_app_server() {
    local _
    for _ in $(seq 1 120); do
        curl -fs "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0
        kill -0 "$2" 2>/dev/null || { echo "app-server on port $1 exited:"; tail -n 20 "$3"; return 1; }
        sleep 0.5
    done
    echo "app-server on port $1 not ready after 60 s"; tail -n 20 "$3"; return 1
}
