#!/usr/bin/env bash
# Installs what the local development services (and the frontend build) need, and only what
# is missing, so a second run takes about a second:
#   - Debian packages: libpq-dev, pkg-config, chromium, fonts-noto-cjk, the PostgreSQL client,
#     and `postgresql` itself only when no server is reachable and none can be created
#     (DATABASE_URL unset, nothing on 127.0.0.1:5432, no initdb binary);
#   - a Python venv at $ROOT/.data/venv with localstripe and schemathesis (app-server/dev/requirements.txt);
#   - maildev (app-server/dev/package.json + package-lock.json, `npm ci`);
#   - frontend/node_modules (`npm ci`) when missing or older than frontend/package-lock.json.
# Usage: bash app-server/dev/setup.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export DEBIAN_FRONTEND=noninteractive

# --- Debian packages ----------------------------------------------------------
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
for pkg in libpq-dev pkg-config chromium fonts-noto-cjk; do
    installed "$pkg" || missing+=("$pkg")
done
if ! command -v psql >/dev/null 2>&1 || ! command -v pg_isready >/dev/null 2>&1; then
    installed postgresql-client || missing+=(postgresql-client)
fi
if [ -z "${DATABASE_URL:-}" ] && ! pg_answers 5432 && ! pg_bin_dir >/dev/null; then
    missing+=(postgresql)
fi

if [ "${#missing[@]}" -gt 0 ]; then
    command -v apt-get >/dev/null 2>&1 || die "missing Debian packages ${missing[*]} and no apt-get"
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "missing ${missing[*]}: run as root or install sudo"
        sudo=(sudo)
    fi
    log "installing Debian packages: ${missing[*]}"
    apt_install() { "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; }
    # Package lists may be absent or stale on a fresh machine: update once and retry.
    if ! apt_install; then
        "${sudo[@]}" apt-get update -q
        apt_install
    fi
fi

# --- Python venv with localstripe --------------------------------------------
requirements="$DEV_DIR/requirements.txt"
stamp="$VENV_DIR/.requirements.sha256"
wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [ ! -x "$VENV_DIR/bin/python" ]; then
    log "creating Python venv at $VENV_DIR"
    mkdir -p "$DATA_DIR"
    "${PYTHON:-python3}" -m venv "$VENV_DIR"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ] || \
        ! "$VENV_DIR/bin/python" -c 'import localstripe' 2>/dev/null; then
    log "installing Python packages from app-server/dev/requirements.txt"
    "$VENV_DIR/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
    echo "$wanted" > "$stamp"
fi

# --- npm packages -------------------------------------------------------------
# npm ci writes node_modules/.package-lock.json; a lock file newer than it means the
# installed tree is out of date.
# $2, if given, is a file that must exist after installing.
npm_ci_if_stale() {
    local dir="$1" marker="$1/node_modules/.package-lock.json" required="${2:-}"
    [ -f "$dir/package-lock.json" ] || return 0
    if [ ! -d "$dir/node_modules" ] || { [ -n "$required" ] && [ ! -e "$required" ]; } \
            || { [ -e "$marker" ] && [ "$dir/package-lock.json" -nt "$marker" ]; } \
            || { [ ! -e "$marker" ] && [ "$dir/package-lock.json" -nt "$dir/node_modules" ]; }; then
        command -v npm >/dev/null 2>&1 || die "npm is needed to install $dir/node_modules"
        log "npm ci in ${dir#"$ROOT"/}"
        npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
        touch "$dir/node_modules"
    fi
}
npm_ci_if_stale "$DEV_DIR" "$DEV_DIR/node_modules/maildev/dist/bin/maildev.js"
[ -f "$DEV_DIR/node_modules/maildev/dist/bin/maildev.js" ] || die "maildev missing after npm ci"
npm_ci_if_stale "$ROOT/frontend"

log "ok"
