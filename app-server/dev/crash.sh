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
SCENARIO=crash
STRIPE_PORT="${CRASH_LOCALSTRIPE_PORT:-8431}" STRIPE_PORT_VAR=CRASH_LOCALSTRIPE_PORT
PORT="${CRASH_PORT:-18191}" PORT_VAR=CRASH_PORT
# shellcheck source=app-server/dev/scenario.sh
source "$(cd "$(dirname "$0")" && pwd)/scenario.sh"
.data/venv/bin/python app-server/dev/crash.py --app-server "$APP_SERVER" --database-url "$URL" --port "$PORT" \
    --stripe "$STRIPE_BASE" --stripe-key "$STRIPE_SECRET_KEY" --webhook-secret "$STRIPE_WEBHOOK_SECRET" \
    --log "$LOG" || exit 1
DATABASE_URL="$URL" STRIPE_API_BASE="$STRIPE_BASE/" RUST_LOG=error "$APP_SERVER" reconcile | tail -n 1
