#!/usr/bin/env bash
# `make lifecycle` (also a layer of `make test`): the end of three campaigns on a fresh database with the local
# payment server. An all-or-nothing project fails with a card and a bank-transfer supporter (both refunded in full;
# the transfer's refund waits for the supporter's account, given here as the provider's mail asks), one succeeds
# thanks to a transfer still pending at its end, and an all-in project succeeds after a partial refund. The server
# is killed (-9) in the middle of the first close and restarted: nothing is refunded or decided twice. A third
# supporter of the failed project never answers: the refund is reminded on days 7, 30 and 150 and lapses unclaimed
# after 6 months (time moved by dating the refund request back). Each owner's one result mail is shown. It prints
# per project the result, the refunds made and pending and the payout statement, then `app-server reconcile`'s
# `differences: 0`. The steps are in lifecycle.py.
#
# Like crash.sh, it runs its own copy of the local payment server (LIFECYCLE_LOCALSTRIPE_PORT, 8432) and its own
# app-server (LIFECYCLE_PORT, 18192).
set -uo pipefail
SCENARIO=lifecycle
STRIPE_PORT="${LIFECYCLE_LOCALSTRIPE_PORT:-8432}" STRIPE_PORT_VAR=LIFECYCLE_LOCALSTRIPE_PORT
PORT="${LIFECYCLE_PORT:-18192}" PORT_VAR=LIFECYCLE_PORT
# shellcheck source=app-server/dev/scenario.sh
source "$(cd "$(dirname "$0")" && pwd)/scenario.sh"
.data/venv/bin/python app-server/dev/lifecycle.py --app-server "$APP_SERVER" --database-url "$URL" --port "$PORT" \
    --stripe "$STRIPE_BASE" --stripe-key "$STRIPE_SECRET_KEY" --webhook-secret "$STRIPE_WEBHOOK_SECRET" \
    --log "$LOG" || exit 1
OUT="$(DATABASE_URL="$URL" STRIPE_API_BASE="$STRIPE_BASE/" PAYOUT_TRANSFER_FEE=440 RUST_LOG=error "$APP_SERVER" reconcile)" || { echo "$OUT"; exit 1; }
echo "$OUT" | grep -E "payout statement|^ +[0-9]+ .*(精算|Difference)|^unclaimed" | head -n 20
echo "$OUT" | tail -n 1
[ "$(echo "$OUT" | tail -n 1)" = "differences: 0" ]
