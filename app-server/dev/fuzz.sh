#!/usr/bin/env bash
# `make fuzz`: schemathesis sends generated requests (valid and invalid) to every operation of /v1/openapi.json,
# once anonymously, once with a demo member's token and, for the admin operations, with the demo administrator's,
# against a debug server on a fresh database with the demo data. Prints the number of requests, 5xx answers and responses that violate their documented schema
# (both must be 0), each distinct failure, and the causes the server logged; exits non-zero on any failure.
# Stops everything it started and drops its database.
#
#   bash app-server/dev/fuzz.sh            the full run (FUZZ_MAX_EXAMPLES per operation and phase, default 100)
#   bash app-server/dev/fuzz.sh --short    a bounded run for `make test` (a few hundred requests, well under 2 min)
#
# Knobs: FUZZ_PORT (18095), FUZZ_MAX_EXAMPLES, FUZZ_SEED (random; fixed for --short), FUZZ_WORKERS (2),
# FUZZ_PATHS (a regular expression: only the operations whose path matches, e.g. a change's endpoints).
# FUZZ_SERVICES=reuse: the caller (test.sh) has the local services up and .data/services.env sourced.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
APP_SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/app-server"
OUT="$ROOT/.data/fuzz"
mode="${1:-full}"
PORT="${FUZZ_PORT:-18095}"
if [ "$mode" = --short ]; then
    # A fixed seed: make test sends the same requests every time.
    EXAMPLES="${FUZZ_MAX_EXAMPLES:-3}"
    PHASES="examples,coverage,fuzzing"
    SEED="${FUZZ_SEED:-20261126}"
else
    EXAMPLES="${FUZZ_MAX_EXAMPLES:-100}"
    PHASES="examples,coverage,fuzzing,stateful"
    SEED="${FUZZ_SEED:-$RANDOM}"
fi

log() { echo "fuzz: $*" >&2; }

# The services this run starts (not those a running `make run` serves with): only these are stopped.
STARTED=""
if [ "${FUZZ_SERVICES:-}" != reuse ]; then
    bash app-server/dev/setup.sh || exit 1
    mkdir -p .data/run
    STARTED="$(mktemp "$ROOT/.data/run/fuzz-started.XXXXXX")"
    bash app-server/dev/services.sh up --record "$STARTED" || exit 1
fi
# shellcheck disable=SC1091
source "${SERVICES_STATE_DIR:-.data}/services.env"

SERVER_PID=""
DB=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    [ -n "$DB" ] && psql "$DATABASE_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1
    [ -n "$STARTED" ] && bash app-server/dev/services.sh down --record "$STARTED" >/dev/null 2>&1
}
trap cleanup EXIT

rm -rf "$OUT" && mkdir -p "$OUT/media"
cargo build -q -p app-server --bin app-server || exit 1

DB="fuzz_$(date +%s)_$$"
psql "$DATABASE_ADMIN_URL" -qc "CREATE DATABASE $DB" || exit 1
export DATABASE_URL="${DATABASE_ADMIN_URL%/*}/$DB" MEDIA_DIR="$OUT/media" RUST_LOG=warn
"$APP_SERVER" migrate >/dev/null || exit 1
"$APP_SERVER" seed-demo >/dev/null || exit 1

# Thousands of requests come from one address: raise the auth rate limits (RATE_LIMIT_SCALE, adapters-http
# rate.rs) so that schemathesis exercises the endpoints rather than the 429. API only: no frontend.
APP_PORT="$PORT" PUBLIC_URL="http://127.0.0.1:$PORT" RATE_LIMIT_SCALE=100000 FRONTEND_DIR="$OUT/no-frontend" \
    CATALOG_CACHE_TTL_MS=0 "$APP_SERVER" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
    kill -0 "$SERVER_PID" 2>/dev/null || { log "app-server exited:"; cat "$OUT/server.log"; exit 1; }
    sleep 0.2
done

token_of() {
    curl -fs -H 'content-type: application/json' -d "{\"email\": \"$1\", \"password\": \"demo-password-1\"}" \
        "http://127.0.0.1:$PORT/v1/user/login" | .data/venv/bin/python -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}
TOKEN="$(token_of demo-taro@example.jp)"
[ -n "$TOKEN" ] || { log "could not log the demo member in"; exit 1; }
ADMIN_TOKEN="$(token_of demo-admin@example.jp)"
[ -n "$ADMIN_TOKEN" ] || { log "could not log the demo administrator in"; exit 1; }

# Only the bar's checks: no 5xx, every response as documented. (Other schemathesis checks judge the API's
# choices, e.g. 404 rather than 405 for TRACE, and are not part of it.)
run_schemathesis() {
    local name="$1"; shift
    log "$name: up to $EXAMPLES examples per operation, phases $PHASES, seed $SEED"
    # From $OUT, where schemathesis keeps its .schemathesis/ cache.
    (cd "$OUT" && "$ROOT/.data/venv/bin/schemathesis" run "http://127.0.0.1:$PORT/v1/openapi.json" \
        --checks not_a_server_error,response_schema_conformance \
        --phases "$PHASES" --max-examples "$EXAMPLES" --seed "$SEED" --workers "${FUZZ_WORKERS:-2}" \
        --request-timeout 10 --no-shrink --suppress-health-check all --warnings off \
        --report ndjson --report-ndjson-path "$OUT/$name.ndjson" \
        ${FUZZ_PATHS:+--include-path-regex "$FUZZ_PATHS"} "$@" >"$OUT/$name.txt" 2>&1)
    return 0
}
started=$SECONDS
run_schemathesis anonymous
run_schemathesis member -H "Authorization: Bearer $TOKEN"
# Everyone else gets 404 from the admin operations: only an administrator's requests reach their validation.
run_schemathesis admin --include-tag admin -H "Authorization: Bearer $ADMIN_TOKEN"

.data/venv/bin/python app-server/dev/fuzz_summary.py "$OUT/anonymous.ndjson" "$OUT/member.ndjson" "$OUT/admin.ndjson"
status=$?
# The server logs the cause of every 5xx (the client only sees a generic message).
causes="$(sed -E 's/\x1b\[[0-9;]*m//g' "$OUT/server.log" | grep -aE ' (ERROR|WARN) ' \
    | grep -avE 'Error encountered while processing|JWT_SECRET|request parse error' \
    | sed -E 's/^[^ ]+ +//' | sort | uniq -c | sort -rn)"
if [ -n "$causes" ]; then
    echo "fuzz: errors and warnings the server logged (count, line):"
    echo "$causes" | head -40
fi
log "done in $((SECONDS - started)) s; reports and server log in ${OUT#"$ROOT"/}"
exit "$status"
