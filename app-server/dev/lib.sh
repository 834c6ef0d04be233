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
