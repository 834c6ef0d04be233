#!/usr/bin/env bash
# `make race` (also a layer of `make test`): 200 guests back one return with 50 units left, all at once, through
# two app-server processes sharing a fresh database. Prints `sold 50 of 50, refused 150, intents 50` (intents
# counted at the payment provider, by this run's guests' customers) and fails on any other figure, then checks
# `app-server reconcile` finds no difference. Stops both servers and drops the database on exit.
# Settings: RACE_PORTS ("18181 18182"), RACE_SUPPORTS (200), RACE_LIMIT (50).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
APP_SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/app-server"
read -r -a PORTS <<<"${RACE_PORTS:-18181 18182}"
SUPPORTS="${RACE_SUPPORTS:-200}"
LIMIT="${RACE_LIMIT:-50}"
RUN="race_$(date +%s)_$$"

bash app-server/dev/setup.sh >/dev/null || exit 1
PIDS=()
DB=""
STARTED="$ROOT/.data/run/started-by-race.$$"
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
    [ -n "$DB" ] && drop_database "$DB"
    bash app-server/dev/services.sh down --record "$STARTED"
}
trap cleanup EXIT
bash app-server/dev/services.sh up --record "$STARTED" >/dev/null || exit 1
# shellcheck disable=SC1091
source "${SERVICES_STATE_DIR:-.data}/services.env"
mkdir -p .data/log  # the scenario's own logs (a test run keeps its services' logs elsewhere)
source app-server/dev/lib.sh

cargo build --quiet -p app-server --bin app-server || exit 1
DB="$RUN"
URL="$(create_demo_database "$DB")" || exit 1
# A return of an open demo project that takes bank transfers: LIMIT units, none taken.
read -r PROJECT RETURN < <(psql "$URL" -Atq -F ' ' -c "
    INSERT INTO returns (project_id, slug, return_type, title, price, stock_limit, flag, address_required, lot_disable)
    SELECT id, 'race-limited', 0, '限定$LIMIT口 レース', 3000, $LIMIT, 0, FALSE, TRUE
      FROM projects WHERE slug = 'maebashi-rose-garden'
    RETURNING project_id, id") || exit 1

servers=()
for port in "${PORTS[@]}"; do
    # The race comes from one address: far above the limit of 30 supports per address.
    DATABASE_URL="$URL" APP_PORT="$port" PUBLIC_URL="http://127.0.0.1:$port" RATE_LIMIT_SCALE=1000 \
        RUST_LOG=warn "$APP_SERVER" >".data/log/race-$port.log" 2>&1 &
    PIDS+=($!)
    servers+=("http://127.0.0.1:$port")
done
for i in "${!PORTS[@]}"; do
    wait_for_app_server "${PORTS[$i]}" "${PIDS[$i]}" ".data/log/race-${PORTS[$i]}.log" || exit 1
done

failed=0
.data/venv/bin/python app-server/dev/race.py --servers "$(IFS=,; echo "${servers[*]}")" \
    --stripe "$STRIPE_API_BASE" --stripe-key "$STRIPE_SECRET_KEY" --project "$PROJECT" --return-id "$RETURN" \
    --limit "$LIMIT" --supports "$SUPPORTS" --run "$RUN" || failed=1
taken="$(psql "$URL" -Atqc "SELECT lots_taken FROM returns WHERE id = $RETURN")"
sales="$(psql "$URL" -Atqc "SELECT count(*) FROM sales WHERE return_id = $RETURN")"
echo "in the database: $sales sales, $taken of $LIMIT units taken"
[ "$sales" = "$LIMIT" ] && [ "$taken" = "$LIMIT" ] || failed=1
DATABASE_URL="$URL" RUST_LOG=error "$APP_SERVER" reconcile | tail -n 1 || failed=1
exit "$failed"
