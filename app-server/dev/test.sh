#!/usr/bin/env bash
# `make test`: install what is missing, start the local services, then run
# every test layer (Rust, frontend unit, browser end-to-end) and print a
# summary. `test.sh e2e` runs only the browser tests (E2E_SPECS="e2e/a.spec.ts ..." narrows them).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# The debug binary, wherever cargo puts it.
APP_SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/app-server"
only="${1:-all}"

bash app-server/dev/setup.sh || exit 1

# Its own payment server and mail catcher, on ports of its own and fresh each run, never the ones `make run`
# serves: localstripe posts every event to every webhook ever registered, and a hook cannot be removed.
export SERVICES_STATE_DIR="${SERVICES_STATE_DIR:-$ROOT/.data/test-services}"
export LOCALSTRIPE_PORT="${TEST_LOCALSTRIPE_PORT:-8520}" SMTP_PORT="${TEST_SMTP_PORT:-1125}" \
  MAILDEV_WEB_PORT="${TEST_MAILDEV_WEB_PORT:-1180}"
mkdir -p "$SERVICES_STATE_DIR" "$ROOT/.data/run" "$ROOT/.data/log"
# Whatever an interrupted earlier run left on those ports goes first.
bash app-server/dev/services.sh down >/dev/null 2>&1 || true

APP_PID=""
E2E_DB=""
# The services this run starts (not those a running `make run` already serves with): only these are stopped.
STARTED="$ROOT/.data/run/started-by-test.$$"
cleanup() {
  [ -n "$APP_PID" ] && remove_payment_webhook "e2e-${E2E_PORT:-18080}"
  [ -n "$APP_PID" ] && kill "$APP_PID" 2>/dev/null && wait "$APP_PID" 2>/dev/null
  [ -n "$E2E_DB" ] && psql "$DATABASE_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $E2E_DB WITH (FORCE)" >/dev/null 2>&1
  bash app-server/dev/services.sh down --record "$STARTED"
}
trap cleanup EXIT
bash app-server/dev/services.sh up --record "$STARTED" || exit 1
# shellcheck disable=SC1091
source "$SERVICES_STATE_DIR/services.env"
source app-server/dev/lib.sh

summary=()
failed=0
layer() {
  local name="$1"; shift
  local started=$SECONDS
  echo; echo "==> $name"
  if "$@"; then
    summary+=("  passed  $name ($((SECONDS - started)) s)")
  else
    summary+=("  FAILED  $name ($((SECONDS - started)) s)")
    failed=1
  fi
}

rust_tests() {
  if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --workspace --no-fail-fast
  else
    cargo test --workspace --no-fail-fast
  fi
}

rust_lints() {
  # The write benchmark's binary too (feature write-bench), so `make bench` never finds it out of date.
  cargo fmt --all --check && cargo clippy --workspace --all-targets --features app-server/write-bench --quiet -- -D warnings
}

# A bounded schemathesis run (app-server/dev/fuzz.sh --short): no 5xx, every response as documented.
api_fuzz() {
  FUZZ_SERVICES=reuse FUZZ_PORT="${FUZZ_PORT:-18095}" bash app-server/dev/fuzz.sh --short
}

# The unit run's JSON report; its failures are printed again at the very end of the log.
VITEST_REPORT="$ROOT/.data/vitest-report.json"
frontend_unit() {
  rm -f "$VITEST_REPORT"
  npm --prefix frontend run --silent typecheck \
    && npm --prefix frontend test -- --reporter=default --reporter=json --outputFile.json="$VITEST_REPORT"
}

# The browser run's JSON report; its failures are printed again at the very end of the log.
E2E_REPORT="$ROOT/.data/e2e-report.json"
E2E_FAILED=0
e2e() {
  rm -f "$E2E_REPORT"
  npm --prefix frontend run --silent build || return 1
  cargo build -p app-server --bin app-server || return 1
  E2E_DB="e2e_$(date +%s)_$$"
  psql "$DATABASE_ADMIN_URL" -qc "CREATE DATABASE $E2E_DB" || return 1
  local port="${E2E_PORT:-18080}"
  local url="${DATABASE_ADMIN_URL%/*}/$E2E_DB"
  DATABASE_URL="$url" "$APP_SERVER" migrate || return 1
  .data/venv/bin/python app-server/dev/load_postal_codes.py "$url" || return 1
  DATABASE_URL="$url" RUST_LOG=warn "$APP_SERVER" seed-demo >/dev/null || return 1
  # The browser suite logs in from one address far more often than a person would: its server gets
  # ten times the production auth limits (RATE_LIMIT_SCALE), so the suite never waits on them. Its payment
  # sweeps run every 2 s (late-transfer.spec.ts waits for the transfer deadline sweep).
  DATABASE_URL="$url" APP_PORT="$port" PUBLIC_URL="http://127.0.0.1:$port" RATE_LIMIT_SCALE=10 \
    PAYMENT_SWEEP_SECONDS=2 RUST_LOG=warn "$APP_SERVER" >.data/e2e-server.log 2>&1 &
  APP_PID=$!
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    kill -0 "$APP_PID" 2>/dev/null || { echo "app-server exited:"; cat .data/e2e-server.log; return 1; }
    sleep 0.5
  done
  register_payment_webhook "e2e-$port" "$port" || return 1
  (cd frontend && BASE_URL="http://127.0.0.1:$port" MAILDEV_URL="$MAILDEV_URL" STRIPE_API_BASE="$STRIPE_API_BASE" \
    E2E_DATABASE_URL="$url" E2E_REPORT="$E2E_REPORT" npx playwright test ${E2E_SPECS:-}) || {
    E2E_FAILED=1
    return 1
  }
  # Every payment the browser made agrees with the provider (exit 1 and the sales listed otherwise).
  echo "==> reconcile: the browser suite's sales against the provider"
  DATABASE_URL="$url" RUST_LOG=warn "$APP_SERVER" reconcile | tail -n 15
}

if [ "$only" = all ]; then
  layer "Dev scripts: services.sh stops only what each run started" bash app-server/dev/services_test.sh
  layer "Rust: formatting and clippy (warnings are errors)" rust_lints
  layer "Rust: unit, property and integration tests" rust_tests
  layer "API: schema-driven fuzzing of /v1/openapi.json (short)" api_fuzz
  layer "Payments: 200 supports race for 50 units through two servers (race.sh)" bash app-server/dev/race.sh
  layer "Payments: crash between the provider and our write, webhook replays (crash.sh)" bash app-server/dev/crash.sh
  layer "Campaigns: three ends, a kill -9 mid-close, refunds and payouts (lifecycle.sh)" bash app-server/dev/lifecycle.sh
  layer "Frontend: typecheck and unit tests" frontend_unit
fi
layer "Browser: end-to-end tests in Debian chromium" e2e

echo
echo "==> Summary (total $SECONDS s)"
printf '%s\n' "${summary[@]}"
if printf '%s\n' "${summary[@]}" | grep -q "FAILED  Frontend"; then
  echo
  echo "==> Why the frontend unit tests failed (from $VITEST_REPORT)"
  (cd frontend && node scripts/vitest-failures.mjs "$VITEST_REPORT")
fi
if [ "$E2E_FAILED" = 1 ]; then
  echo
  echo "==> Why the browser tests failed (from $E2E_REPORT; the app-server's log is .data/e2e-server.log)"
  node frontend/scripts/e2e-failures.mjs "$E2E_REPORT"
  echo "--- the app-server's last warnings:"
  grep -E "WARN|ERROR" .data/e2e-server.log | sed "s/\x1b\[[0-9;]*m//g" | tail -n 15
fi
exit "$failed"
