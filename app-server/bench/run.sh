#!/usr/bin/env bash
# `make bench`: the public read endpoints under load, on a release build, against a fresh database with the
# demo data and 1,000,000 paid sales. Prints, per endpoint, wrk's requests/s and latency percentiles (64
# connections, ~10 s) beside the rate of the same SQL straight from pgbench (64 clients, 2 threads, 10 s),
# then the home page's initial JS (gzip and Brotli) and Lighthouse scores. Stops everything it started.
# Then the HTML of / and a project page with their first screen server-rendered (FIRST_SCREEN_WORKERS Node
# processes) beside the same pages with the renderer off (FIRST_SCREEN_RENDERER=off).
# Then the project list and keyword search (GET /v1/project/get/list) on BENCH_PROJECTS (10,000) public projects,
# copies of the demo's (load_projects.sql), beside the same list on the demo's 7.
# Then the support write path: guest bank-transfer supports placed through SupportService and the real ledger
# (provider stubbed, app-server/bench/support_write.rs), first on a database with the demo data only, then on the
# one with the bulk sales (the two rates should stay within 20 %), beside pgbench running the same statements
# (support_write.sql), same client count, and the ratio.
# Knobs: BENCH_SALES (1000000), BENCH_PROJECTS (10000), BENCH_DURATION (10), BENCH_PORT (18090), BENCH_LIGHTHOUSE_RUNS (3),
# BENCH_SKIP_LIGHTHOUSE=1, BENCH_POOL_SIZE (16, the server's and the write benchmark's pool),
# BENCH_ONLY=read|write (one part only; `write` loads no bulk sales unless BENCH_SALES is set).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
BENCH_DIR="$ROOT/app-server/bench"
ONLY="${BENCH_ONLY:-}"
case "$ONLY" in ""|read|write) ;; *) echo "BENCH_ONLY must be read or write" >&2; exit 2 ;; esac
if [ "$ONLY" = write ]; then SALES="${BENCH_SALES:-0}"; else SALES="${BENCH_SALES:-1000000}"; fi
POOL_SIZE="${BENCH_POOL_SIZE:-16}"
DURATION="${BENCH_DURATION:-10}"
PORT="${BENCH_PORT:-18090}"
CONNECTIONS=64
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$ROOT/.data/bench"
mkdir -p "$OUT"

log() { echo "bench: $*" >&2; }

bash app-server/dev/setup.sh
# wrk is a benchmark-only tool: installed here, not by setup.sh.
if ! command -v wrk >/dev/null 2>&1; then
    log "installing wrk"
    sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" apt-get install -y -q --no-install-recommends wrk || { "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q --no-install-recommends wrk; }
fi
SERVER_PID=""
DB=""
# Only the services this run starts are stopped (a `make run` in this checkout keeps its mail catcher).
STARTED="$ROOT/.data/run/started-by-bench.$$"
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    [ -n "$DB" ] && psql "$DATABASE_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1
    [ -n "$DB" ] && psql "$DATABASE_ADMIN_URL" -qc "DROP DATABASE IF EXISTS ${DB}_demo WITH (FORCE)" >/dev/null 2>&1
    bash "$ROOT/app-server/dev/services.sh" down --record "$STARTED" >/dev/null 2>&1 || true
}
trap cleanup EXIT
bash app-server/dev/services.sh up --record "$STARTED"
# shellcheck disable=SC1091
source .data/services.env

log "building app-server (release)"
if [ "$ONLY" = read ]; then
    cargo build --release -q -p app-server --bin app-server
else
    # One build for both: the feature only adds the benchmark's binary.
    cargo build --release -q -p app-server --features write-bench --bin app-server --bin support-write-bench
fi
BIN="$TARGET_DIR/release/app-server"
FRONTEND_BUILT=0
if [ "$ONLY" != write ]; then
    # Before the server starts, which reads index.html once: the pages' rows need it and the server bundle
    # (dist-server/render.js) that renders their first screen; Lighthouse measures the same build.
    log "building the frontend"
    npm --prefix frontend run --silent build >"$OUT/frontend-build.log" 2>&1 && FRONTEND_BUILT=1
fi

DB="bench_$(date +%s)"
psql "$DATABASE_ADMIN_URL" -qc "CREATE DATABASE $DB"
export DATABASE_URL="${DATABASE_ADMIN_URL%/*}/$DB"
export MEDIA_DIR="$OUT/media" RUST_LOG=warn
log "seeding demo data into $DB"
"$BIN" seed-demo >/dev/null
if [ "$SALES" -gt 0 ]; then
    log "loading $SALES paid sales"
    started=$SECONDS
    psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v sales="$SALES" -f "$BENCH_DIR/load_sales.sql"
    log "loaded in $((SECONDS - started)) s; VACUUM ANALYZE"
fi
# VACUUM sets the visibility map so the partial covering indexes answer sums with index-only scans.
psql "$DATABASE_URL" -qc "VACUUM ANALYZE"

q() { psql "$DATABASE_URL" -Atqc "$1"; }

if [ "$ONLY" != write ]; then
log "starting the release server on port $PORT"
APP_PORT="$PORT" PUBLIC_URL="http://127.0.0.1:$PORT" DATABASE_POOL_SIZE="$POOL_SIZE" \
    "$BIN" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$OUT/server.log"; exit 1; }
    sleep 0.2
done

PROJECT_ID="$(q "SELECT project_id FROM sales WHERE status = 'succeeded' GROUP BY project_id ORDER BY count(*) DESC LIMIT 1")"
SLUG="$(q "SELECT slug FROM projects WHERE id = $PROJECT_ID")"
SALES_PAID="$(q "SELECT count(*) FROM sales WHERE status = 'succeeded'")"
log "$SALES_PAID paid sales; busiest project $PROJECT_ID ($SLUG, $(q "SELECT count(*) FROM sales WHERE project_id = $PROJECT_ID AND status = 'succeeded'") paid sales)"

# The SQL each endpoint runs (on a cache miss), for pgbench.
sql_for() {
    case "$1" in
        allSum) echo "SELECT coalesce(sum(paid_amount), 0)::bigint, coalesce(sum(supports), 0)::bigint FROM project_totals;" ;;
        sum) echo "SELECT paid_amount, supports FROM project_totals WHERE project_id = $PROJECT_ID;" ;;
        detail) cat <<SQL
SELECT * FROM projects ORDER BY id;
SELECT project_id, src, alt FROM project_slider_images ORDER BY project_id, position;
SELECT paid_amount, supports FROM project_totals WHERE project_id = $PROJECT_ID;
SELECT * FROM returns WHERE project_id = $PROJECT_ID AND flag < 900 AND (show_user_email IS NULL OR btrim(show_user_email) = '') ORDER BY position, id;
SQL
        ;;
        information) echo "SELECT id, title, description, updated_at FROM project_news WHERE project_id = $PROJECT_ID AND published_at <= now() ORDER BY published_at DESC, id DESC;" ;;
        comments) echo "SELECT c.id, c.comment, u.displayname, (SELECT i.url FROM user_images i WHERE i.user_id = c.user_id AND i.image_type = 2 ORDER BY i.created_at DESC LIMIT 1), d.displayname, EXISTS (SELECT 1 FROM display_names a WHERE a.project_id = c.project_id AND a.user_id = c.user_id AND a.flag = 0) FROM comments c JOIN users u ON u.id = c.user_id LEFT JOIN display_names d ON d.sales_id = c.sales_id WHERE c.project_id = $PROJECT_ID AND c.flag = 1 ORDER BY c.created_at DESC, c.id DESC;" ;;
        # The list and search read the cached catalog: on a miss, every project and the paid totals.
        list|search|search-none) cat <<SQL
SELECT * FROM projects ORDER BY id;
SELECT project_id, title, description FROM returns WHERE flag < 900 AND (show_user_email IS NULL OR btrim(show_user_email) = '') ORDER BY project_id, position, id;
SELECT project_id, paid_amount, supports FROM project_totals;
SQL
        ;;
        sponsors) echo "SELECT t.user_id, t.amount, t.latest_at, t.anonymous, t.name, t.logo_type, u.corporateurl, (SELECT i.url FROM user_images i WHERE i.user_id = t.user_id AND i.image_type = 1 ORDER BY i.created_at DESC, i.id DESC LIMIT 1) FROM sponsor_totals t JOIN users u ON u.id = t.user_id WHERE t.project_id = $PROJECT_ID AND t.supports > 0 AND NOT EXISTS (SELECT 1 FROM project_sponsor_exclusions e WHERE e.project_id = t.project_id AND e.user_id = t.user_id);" ;;
    esac
}

declare -A PATHS=(
    [allSum]="/v1/sales/get/allSum"
    [sum]="/v1/sales/get/sum?type=project&id=$PROJECT_ID"
    [detail]="/v1/project/get/detail?slug=$SLUG"
    [information]="/v1/information/get/list?project_id=$PROJECT_ID"
    [comments]="/v1/comment/get/list?project_id=$PROJECT_ID"
    [sponsors]="/v1/sponsors/get/list?project_id=$PROJECT_ID"
    # The project list: open projects, most raised first; a keyword (バラ, katakana for the title's ばら) that
    # finds some; one (ぶどう狩り) that finds none, so every project's text is scanned.
    [list]="/v1/project/get/list?state=open&sort=raised"
    [search]="/v1/project/get/list?q=%E3%83%90%E3%83%A9&sort=ending"
    [search-none]="/v1/project/get/list?q=%E3%81%B6%E3%81%A9%E3%81%86%E7%8B%A9%E3%82%8A"
)
ORDER=(allSum sum detail information comments sponsors list search search-none)
LIST_ORDER=(list search search-none)

# wrk's "50%  1.23ms" lines to milliseconds.
to_ms() {
    awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'
}

# One endpoint under wrk, then its SQL under pgbench: prints the row of the results table. `$2` names the files.
measure() {
    local name="$1" label="${2:-$1}"
    url="http://127.0.0.1:$PORT${PATHS[$name]}"
    curl -fs "$url" >/dev/null   # warm the cache once, as any running server is
    log "wrk $label (${DURATION}s, $CONNECTIONS connections)"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$url" >"$OUT/wrk-$label.txt"
    rps="$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' "$OUT/wrk-$label.txt")"
    p50="$(to_ms "$(awk '$1 == "50%" { print $2 }' "$OUT/wrk-$label.txt")")"
    p90="$(to_ms "$(awk '$1 == "90%" { print $2 }' "$OUT/wrk-$label.txt")")"
    p99="$(to_ms "$(awk '$1 == "99%" { print $2 }' "$OUT/wrk-$label.txt")")"
    max="$(to_ms "$(awk '$1 == "Latency" && NF >= 4 { print $4; exit }' "$OUT/wrk-$label.txt")")"
    errors="$(awk '/Non-2xx|Socket errors/ { print }' "$OUT/wrk-$label.txt" | tr '\n' ' ')"
    sql_for "$name" >"$OUT/query-$label.sql"
    log "pgbench $label"
    tps="$(pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" -f "$OUT/query-$label.sql" "$DATABASE_URL" 2>/dev/null \
        | awk '/^tps/ { printf "%.0f", $3 }')"
    ratio="$(awk -v a="$rps" -v b="$tps" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')"
    printf '%-18s %9s %8s %8s %8s %8s %11s %7s  %s' "$label" "$rps" "$p50" "$p90" "$p99" "$max" "$tps" "$ratio" "$errors"
}

# One endpoint with one connection (a visitor's own wait, no queue behind other requests): "label p50 p99".
alone() {
    local name="$1" label="$2"
    wrk -t1 -c1 -d"${DURATION}s" --latency "http://127.0.0.1:$PORT${PATHS[$name]}" >"$OUT/wrk-$label-alone.txt"
    printf '%-18s %8s %8s' "$label" "$(to_ms "$(awk '$1 == "50%" { print $2 }' "$OUT/wrk-$label-alone.txt")")" \
        "$(to_ms "$(awk '$1 == "99%" { print $2 }' "$OUT/wrk-$label-alone.txt")")"
}

# start_server [env...]: (re)starts the release server with extra environment, waits until it is ready.
start_server() {
    [ -n "$SERVER_PID" ] && { kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null || true; }
    env "$@" APP_PORT="$PORT" PUBLIC_URL="http://127.0.0.1:$PORT" DATABASE_POOL_SIZE="$POOL_SIZE" \
        "$BIN" >>"$OUT/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
}

RESULTS=()
for name in "${ORDER[@]}"; do
    RESULTS+=("$(measure "$name")")
done

# The same reads with the in-process cache off: every request reads PostgreSQL (the index of every project
# is kept while the catalog version holds). Compared with pgbench's prepared primary-key select.
UNCACHED_ORDER=(allSum sum detail information comments sponsors)
start_server CATALOG_CACHE_TTL_MS=0
UNCACHED=()
for name in "${UNCACHED_ORDER[@]}"; do
    UNCACHED+=("$(measure "$name" "$name-nocache")")
done
# What any read costs on this server before its own work: no database at all (/healthz), and one
# `SELECT 1` through the pool (/readyz). No uncached read can pass the second.
floor_row() {
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$PORT$2" >"$OUT/wrk-floor-$1.txt"
    printf '%-18s %9s %8s %8s %8s %8s %11s %7s' "$1" \
        "$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' "$OUT/wrk-floor-$1.txt")" \
        "$(to_ms "$(awk '$1 == "50%" { print $2 }' "$OUT/wrk-floor-$1.txt")")" \
        "$(to_ms "$(awk '$1 == "90%" { print $2 }' "$OUT/wrk-floor-$1.txt")")" \
        "$(to_ms "$(awk '$1 == "99%" { print $2 }' "$OUT/wrk-floor-$1.txt")")" \
        "$(to_ms "$(awk '$1 == "Latency" && NF >= 4 { print $4; exit }' "$OUT/wrk-floor-$1.txt")")" - -
}
log "wrk /healthz and /readyz (the floor)"
UNCACHED+=("$(floor_row healthz /healthz)" "$(floor_row readyz /readyz)")
echo "SELECT id, slug FROM projects WHERE id = $PROJECT_ID;" >"$OUT/query-pk.sql"
log "pgbench primary-key select (prepared)"
PK_TPS="$(pgbench -n -M prepared -c "$CONNECTIONS" -j 2 -T "$DURATION" -f "$OUT/query-pk.sql" "$DATABASE_URL" 2>/dev/null \
    | awk '/^tps/ { printf "%.0f", $3 }')"
start_server

echo
echo "== Public reads: $SALES_PAID paid sales, release build, $(nproc) cores, wrk -t2 -c$CONNECTIONS -d${DURATION}s --latency"
echo "   (pgbench: the same SQL, -n -c $CONNECTIONS -j 2 -T $DURATION; ratio = HTTP req/s ÷ SQL tx/s)"
printf '%-18s %9s %8s %8s %8s %8s %11s %7s\n' endpoint "req/s" "p50 ms" "p90 ms" "p99 ms" "max ms" "SQL tx/s" ratio
printf '%s\n' "${RESULTS[@]}"
echo
echo "== The same reads with the cache off (CATALOG_CACHE_TTL_MS=0)"
echo "   pgbench's prepared primary-key select on this server: $PK_TPS tx/s; pk = HTTP req/s ÷ that"
echo "   (healthz: no database; readyz: one SELECT 1 through the pool, the most an uncached read can reach)"
printf '%-18s %9s %8s %8s %8s %8s %11s %7s  %5s\n' endpoint "req/s" "p50 ms" "p90 ms" "p99 ms" "max ms" "SQL tx/s" ratio pk
for row in "${UNCACHED[@]}"; do
    rps="$(awk '{ print $2 }' <<<"$row")"
    printf '%s %5s\n' "$row" "$(awk -v a="$rps" -v b="$PK_TPS" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
done

# --- The pages' HTML with the first screen server-rendered, and without --------------------------------
# One row: "page renderer req/s p50 p99 first-screen". A curl first says whether the page arrived with
# markup inside <div id=root> (and renders it once, as the first visitor does); wrk then asks the same page.
page_row() {
    local page="$1" renderer="$2" url="http://127.0.0.1:$PORT$1" rendered=no tries=1
    # The renderer starts beside the server, not before it: give it the start limit (10 s) to be ready.
    [ "$renderer" = on ] && tries=20
    local file="$OUT/wrk-page$(echo "$page" | tr '/' '_')-$renderer.txt"
    for _ in $(seq 1 "$tries"); do
        # Into a file: grep -q leaving early would fail curl's write, and with it the pipeline.
        curl -fs "$url" >"$file.html" && grep -Eq '<div id="?root"?><[a-z]' "$file.html" && { rendered=yes; break; }
        [ "$tries" -gt 1 ] && sleep 0.5
    done
    log "wrk $page, renderer $renderer (${DURATION}s, $CONNECTIONS connections)"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$url" >"$file"
    printf '%-40s %-8s %9s %8s %8s %8s  %s' "$page" "$renderer" \
        "$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' "$file")" \
        "$(to_ms "$(awk '$1 == "50%" { print $2 }' "$file")")" "$(to_ms "$(awk '$1 == "99%" { print $2 }' "$file")")" \
        "$rendered" "$(awk '/Non-2xx|Socket errors/ { print }' "$file" | tr '\n' ' ')"
}
if [ "$FRONTEND_BUILT" = 1 ]; then
    PAGE_ROWS=()
    for renderer in on off; do
        if [ "$renderer" = off ]; then start_server FIRST_SCREEN_RENDERER=off; else start_server; fi
        for page in / "/projects/$SLUG/"; do PAGE_ROWS+=("$(page_row "$page" "$renderer")"); done
    done
    start_server
    echo
    echo "== Pages' HTML: first screen rendered by ${FIRST_SCREEN_WORKERS:-2} Node processes (on) or by the browser (off), same wrk"
    printf '%-40s %-8s %9s %8s %8s %8s\n' page renderer "req/s" "p50 ms" "p99 ms" "markup"
    printf '%s\n' "${PAGE_ROWS[@]}"
else
    echo
    echo "== Pages' HTML not measured: the frontend build failed; see $OUT/frontend-build.log"
fi

# --- Frontend: initial JS and Lighthouse -------------------------------------------------------------
echo
if [ -f frontend/scripts/initial-size.js ] && [ "$FRONTEND_BUILT" = 1 ]; then
    echo "== Home page initial assets (frontend/scripts/initial-size.js)"
    node frontend/scripts/initial-size.js
else
    echo "== Frontend build failed or no initial-size script; see $OUT/frontend-build.log"
fi

if [ "${BENCH_SKIP_LIGHTHOUSE:-0}" != 1 ]; then
    if [ ! -x "$BENCH_DIR/node_modules/.bin/lighthouse" ]; then
        # npm ci refuses lighthouse 12's lock file (a nested third-party-web it reports as missing): fall back
        # to npm install, which resolves the same versions from the lock file.
        npm ci --prefix "$BENCH_DIR" --no-audit --no-fund --loglevel=error >/dev/null 2>&1 \
            || npm install --prefix "$BENCH_DIR" --no-audit --no-fund --loglevel=error >/dev/null
    fi
    start_server
    RUNS="${BENCH_LIGHTHOUSE_RUNS:-3}"
    lighthouse() {
        CHROME_PATH=/usr/lib/chromium/chromium "$BENCH_DIR/node_modules/.bin/lighthouse" "http://127.0.0.1:$PORT$1" \
            --quiet --only-categories=performance,accessibility --output=json --output-path="$2" \
            --chrome-flags="--headless --no-sandbox --disable-gpu --disable-background-networking" >/dev/null 2>&1
    }
    # A first run only warms the machine (a fresh chromium's first start, the server's caches): not counted.
    lighthouse / "$OUT/lighthouse-warmup.json" || true
    echo
    echo "== Lighthouse (mobile defaults: simulated slow 4G, 4x CPU; headless chromium): median of $RUNS runs"
    for page in "/" "/projects/$SLUG/"; do
        reports=()
        for run in $(seq 1 "$RUNS"); do
            report="$OUT/lighthouse-$(echo "$page" | tr '/' '_')-$run.json"
            lighthouse "$page" "$report" && reports+=("$report")
        done
        node "$BENCH_DIR/lighthouse-summary.js" "$page" "${reports[@]}"
    done
fi

# After Lighthouse, whose home page lists every project and must see only the demo's.
# --- The project list and keyword search at scale ---------------------------------------------------
PROJECTS="${BENCH_PROJECTS:-10000}"
if [ "$PROJECTS" -gt 0 ]; then
    log "adding $PROJECTS public projects (copies of the demo's)"
    psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v projects="$PROJECTS" -f "$BENCH_DIR/load_projects.sql"
    psql "$DATABASE_URL" -qc "VACUUM ANALYZE projects, returns, project_publications"
    PUBLIC_PROJECTS="$(q "SELECT count(*) FROM project_publications WHERE published_at <= now()")"
    # The catalog is read again within SUPPORT_SHOWS_WITHIN (1 s): wait until the list counts them all.
    for _ in $(seq 1 100); do
        total="$(curl -fs "http://127.0.0.1:$PORT/v1/project/get/list" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')"
        [ "$total" = "$PUBLIC_PROJECTS" ] && break
        sleep 0.2
    done
    [ "$total" = "$PUBLIC_PROJECTS" ] || { echo "bench: the list shows $total of $PUBLIC_PROJECTS projects" >&2; exit 1; }
    found="$(curl -fs "http://127.0.0.1:$PORT${PATHS[search]}" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')"
    LIST_RESULTS=()
    LIST_ALONE=()
    for name in "${LIST_ORDER[@]}"; do
        LIST_RESULTS+=("$(measure "$name" "$name-${PROJECTS}")")
        log "wrk $name-${PROJECTS}, one connection"
        LIST_ALONE+=("$(alone "$name" "$name-${PROJECTS}")")
    done
    echo
    echo "== Project list and keyword search: $PUBLIC_PROJECTS public projects ('バラ' finds $found), same wrk and pgbench"
    echo "   (every request filters, sorts and pages the whole in-memory catalog; SQL = the catalog's reload on a miss)"
    printf '%-18s %9s %8s %8s %8s %8s %11s %7s\n' endpoint "req/s" "p50 ms" "p90 ms" "p99 ms" "max ms" "SQL tx/s" ratio
    printf '%s\n' "${LIST_RESULTS[@]}"
    echo "   one request at a time (wrk -t1 -c1): what one visitor waits, without $CONNECTIONS others queued ahead"
    printf '%-18s %8s %8s\n' endpoint "p50 ms" "p99 ms"
    printf '%s\n' "${LIST_ALONE[@]}"
fi
fi

# --- The support write path ------------------------------------------------------------------------
# Guest bank-transfer supports through SupportService against the database in DATABASE_URL: prints
# "project return rate p50 p90 p99 errors".
write_path() {
    # An open project taking bank transfers, and a return anyone may buy with no stock limit, address or
    # question: every support succeeds, as most do in production.
    local project ret
    read -r project ret < <(q "SELECT r.project_id || ' ' || r.id FROM returns r JOIN projects p ON p.id = r.project_id
        WHERE p.accepts_bank_transfer AND p.period_end >= current_date AND r.stock_limit IS NULL AND NOT r.disabled
          AND r.flag < 900 AND NOT r.address_required AND coalesce(btrim(r.show_user_email), '') = ''
          AND coalesce(btrim(p.additional_data_label), '') = '' AND r.return_type = 0
        ORDER BY r.project_id, r.id LIMIT 1")
    [ -n "${project:-}" ] || { echo "bench: no open project with an unlimited return in the demo data" >&2; exit 1; }
    log "support write path on $(q "SELECT count(*) FROM sales") sales: project $project, return $ret (${DURATION}s, $CONNECTIONS tasks, pool $POOL_SIZE)"
    echo "$project $ret $(DATABASE_POOL_SIZE="$POOL_SIZE" BENCH_PROJECT_ID="$project" BENCH_RETURN_ID="$ret" \
        BENCH_CLIENTS="$CONNECTIONS" BENCH_DURATION="$DURATION" "$TARGET_DIR/release/support-write-bench")"
}

if [ "$ONLY" != read ]; then
    thousands() { echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta'; }
    # The same write path on the demo data alone first: its cost must not grow with the sales already there.
    DEMO_RATE=""
    if [ "$SALES" -gt 0 ]; then
        BULK_URL="$DATABASE_URL"
        DEMO_DB="${DB}_demo"
        psql "$DATABASE_ADMIN_URL" -qc "CREATE DATABASE $DEMO_DB"
        export DATABASE_URL="${DATABASE_ADMIN_URL%/*}/$DEMO_DB"
        "$BIN" seed-demo >/dev/null
        psql "$DATABASE_URL" -qc "VACUUM ANALYZE"
        read -r _ _ DEMO_RATE DEMO_P50 DEMO_P90 DEMO_P99 DEMO_ERRORS < <(write_path)
        export DATABASE_URL="$BULK_URL"
        psql "$DATABASE_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DEMO_DB WITH (FORCE)"
    fi
    read -r W_PROJECT W_RETURN W_RATE W_P50 W_P90 W_P99 W_ERRORS < <(write_path)
    # pgbench writes the very terms the service priced: read them back from one of its sales.
    read -r W_PRICE W_LOT W_AMOUNT W_TAX W_TOTAL W_MODE W_RATE_PCT W_FEE < <(q "SELECT price, lot, amount, tax, total,
        tax_mode, tax_rate_percent, application_fee FROM sales WHERE idempotency_key LIKE 'bench-%' LIMIT 1" | tr '|' ' ')
    # The guests the service made (all 1,000 unless the run was too short to reach them all), customers included.
    W_GUESTS="$(q "SELECT count(*) FROM users u JOIN payment_customers c ON c.user_id = u.id WHERE u.email LIKE 'bench-guest-%'")"
    log "pgbench support_write.sql ($W_GUESTS guests)"
    pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" -f "$BENCH_DIR/support_write.sql" \
        -D guests="$W_GUESTS" -D project="$W_PROJECT" -D ret="$W_RETURN" -D price="$W_PRICE" -D lot="$W_LOT" \
        -D amount="$W_AMOUNT" -D tax="$W_TAX" -D total="$W_TOTAL" -D tax_mode="$W_MODE" -D rate="$W_RATE_PCT" \
        -D fee="$W_FEE" "$DATABASE_URL" >"$OUT/pgbench-support-write.txt" 2>&1
    W_TPS="$(awk '/^tps/ { printf "%.0f", $3 }' "$OUT/pgbench-support-write.txt")"
    [ -n "$W_TPS" ] || { cat "$OUT/pgbench-support-write.txt" >&2; exit 1; }
    # The service reaches the database through its pool only: the same statements from as many connections.
    pgbench -n -c "$POOL_SIZE" -j 2 -T "$DURATION" -f "$BENCH_DIR/support_write.sql" \
        -D guests="$W_GUESTS" -D project="$W_PROJECT" -D ret="$W_RETURN" -D price="$W_PRICE" -D lot="$W_LOT" \
        -D amount="$W_AMOUNT" -D tax="$W_TAX" -D total="$W_TOTAL" -D tax_mode="$W_MODE" -D rate="$W_RATE_PCT" \
        -D fee="$W_FEE" "$DATABASE_URL" >"$OUT/pgbench-support-write-pool.txt" 2>&1
    W_TPS_POOL="$(awk '/^tps/ { printf "%.0f", $3 }' "$OUT/pgbench-support-write-pool.txt")"
    W_RATIO="$(awk -v a="$W_RATE" -v b="$W_TPS" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
    echo
    echo "== Support write path: guest bank-transfer supports, provider stubbed, $CONNECTIONS tasks, pool $POOL_SIZE, ${DURATION}s"
    if [ -n "$DEMO_RATE" ]; then
        printf 'support write path, demo data only: %s supports/s (p50 %s ms, p90 %s ms, p99 %s ms, %s errors)\n' \
            "$(thousands "$DEMO_RATE")" "$DEMO_P50" "$DEMO_P90" "$DEMO_P99" "$DEMO_ERRORS"
        printf 'support write path, with %s paid sales: %s supports/s (p50 %s ms, p90 %s ms, p99 %s ms, %s errors); %s of the demo-data rate\n' \
            "$(thousands "$SALES")" "$(thousands "$W_RATE")" "$W_P50" "$W_P90" "$W_P99" "$W_ERRORS" \
            "$(awk -v a="$W_RATE" -v b="$DEMO_RATE" 'BEGIN { if (b > 0) printf "%.0f%%", 100 * a / b; else print "-" }')"
    fi
    printf 'support write path: %s supports/s (p50 %s ms, p90 %s ms, p99 %s ms, %s errors); pgbench same statements: %s tx/s; ratio %sx\n' \
        "$(thousands "$W_RATE")" "$W_P50" "$W_P90" "$W_P99" "$W_ERRORS" "$(thousands "$W_TPS")" "$W_RATIO"
    echo "   (pgbench with $POOL_SIZE clients, the pool's connections: $(thousands "$W_TPS_POOL") tx/s; every support also takes the return's row lock in the stock trigger, held to COMMIT)"
fi
