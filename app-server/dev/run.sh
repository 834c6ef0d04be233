#!/usr/bin/env bash
# `make run`: install what is missing, start the local services, build the
# frontend and the server, and serve the site until Ctrl-C.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# The debug binary, wherever cargo puts it.
APP_SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/app-server"

bash app-server/dev/setup.sh
# On exit, stop only what this run started: services another command (say `make test`) started stay up.
STARTED="$ROOT/.data/run/started-by-run.$$"
trap 'bash app-server/dev/services.sh down --record "$STARTED"' EXIT
bash app-server/dev/services.sh up --record "$STARTED"
# shellcheck disable=SC1091
source .data/services.env
source app-server/dev/lib.sh

echo "==> Building the frontend"
npm --prefix frontend run --silent build
echo "==> Building the server"
cargo build -p app-server --bin app-server
echo "==> Migrating, loading postal codes and the demo data (idempotent)"
"$APP_SERVER" migrate
.data/venv/bin/python app-server/dev/load_postal_codes.py "$DATABASE_URL"
"$APP_SERVER" seed-demo

export APP_PORT="${APP_PORT:-8080}"
export PUBLIC_URL="${PUBLIC_URL:-http://127.0.0.1:${APP_PORT}}"
register_payment_webhook "make-run-${APP_PORT}" "$APP_PORT"
cat <<MSG

  Site:         ${PUBLIC_URL}
  Mail catcher: ${MAILDEV_URL}   (activation and reset mails land here)
  Demo logins:  demo-taro@example.jp (supporter), demo-admin@example.jp (administrator); password demo-password-1
  Stop with Ctrl-C.

MSG
"$APP_SERVER"
