#!/usr/bin/env bash
# Local development services, on loopback only.
#
#   bash app-server/dev/services.sh up      start (or reuse) PostgreSQL, localstripe, maildev;
#                                           write $ROOT/.data/services.env
#   bash app-server/dev/services.sh down    stop what any `up` of this checkout started (never a
#                                           pre-existing server): `make services-down`
#   ... up --record FILE                    also write to FILE the services THIS invocation started
#   ... down --record FILE                  stop only the services named in FILE, then delete it
#                                           (run.sh, test.sh and bench/run.sh do this, so a test run
#                                           never stops the mail catcher a running `make run` uses)
#   bash app-server/dev/services.sh env     print $ROOT/.data/services.env (source it)
#   bash app-server/dev/services.sh status  show what runs and who started it
#
# PostgreSQL: DATABASE_URL if set; else a server answering on 127.0.0.1:5432 (user postgres,
# trust auth); else a private cluster in $ROOT/.data/pg (initdb/pg_ctl, port 5433 or the next
# free one). FORCE_PRIVATE_PG=1 skips the reuse of 127.0.0.1:5432.
# Ports: LOCALSTRIPE_PORT (8420), SMTP_PORT (1025), MAILDEV_WEB_PORT (1080), PRIVATE_PG_PORT (5433).
# A service already answering on its port is reused, not restarted; `down` leaves it alone.
# Processes started here are recorded in $ROOT/.data/run/*.pid, logs go to $ROOT/.data/log/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

COMMAND="${1:-}"
RECORD_FILE=""
if [ "${2:-}" = "--record" ]; then
    [ -n "${3:-}" ] || { echo "usage: $0 up|down --record FILE" >&2; exit 2; }
    RECORD_FILE="$3"
fi

# started <name>: note that this invocation started service <name> (for `down --record`).
started() {
    if [ -n "$RECORD_FILE" ]; then echo "$1" >> "$RECORD_FILE"; fi
}

LOCALSTRIPE_PORT="${LOCALSTRIPE_PORT:-8420}"
SMTP_PORT="${SMTP_PORT:-1025}"
MAILDEV_WEB_PORT="${MAILDEV_WEB_PORT:-1080}"
PRIVATE_PG_PORT="${PRIVATE_PG_PORT:-5433}"
DB_NAME="crowdfunding"
PG_DIR="$DATA_DIR/pg"
PGDATA_DIR="$PG_DIR/data"
ENV_FILE="$DATA_DIR/services.env"
MAIL_DIR="$DATA_DIR/mail"
# SERVICES_STATE_DIR keeps pid files, logs, mail and services.env elsewhere (services_test.sh runs a
# second set of services beside the checkout's own without touching their pid files).
if [ -n "${SERVICES_STATE_DIR:-}" ]; then
    RUN_DIR="$SERVICES_STATE_DIR/run"
    LOG_DIR="$SERVICES_STATE_DIR/log"
    ENV_FILE="$SERVICES_STATE_DIR/services.env"
    MAIL_DIR="$SERVICES_STATE_DIR/mail"
fi
WAIT_SECONDS="${SERVICES_WAIT_SECONDS:-30}"

# wait_until <what> <command...>: poll for up to WAIT_SECONDS, fail with the log's tail.
wait_until() {
    local what="$1" logfile="$2"; shift 2
    local deadline=$((SECONDS + WAIT_SECONDS))
    until "$@"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            log "error: $what did not answer within ${WAIT_SECONDS}s"
            [ -f "$logfile" ] && { log "last lines of $logfile:"; tail -n 20 "$logfile" >&2; }
            exit 1
        fi
        sleep 0.2
    done
}

# Is the process in pid file $1 alive and running a command line containing $2?
pid_alive() {
    local pid
    pid="$(cat "$1" 2>/dev/null)" || return 1
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$2"
}

# start_detached <name> <command...>: run in its own session, log to $LOG_DIR/<name>.log.
start_detached() {
    local name="$1"; shift
    setsid "$@" >>"$LOG_DIR/$name.log" 2>&1 </dev/null &
    echo $! > "$RUN_DIR/$name.pid"
}

# --- PostgreSQL -----------------------------------------------------------------------

# psql from PATH or from the server's bin directory.
psql_cmd() {
    if command -v psql >/dev/null 2>&1; then echo psql; return; fi
    local bin; bin="$(pg_bin_dir)" && [ -x "$bin/psql" ] && { echo "$bin/psql"; return; }
    return 1
}

# ensure_database <admin url> <db name>
ensure_database() {
    local psql; psql="$(psql_cmd)" || { log "warning: no psql; cannot check database $2"; return 0; }
    if [ "$("$psql" "$1" -tAXc "SELECT 1 FROM pg_database WHERE datname = '$2'")" != 1 ]; then
        log "creating database $2"
        "$psql" "$1" -qX -c "CREATE DATABASE \"$2\""
    fi
}

# The user that runs the private cluster: ourselves, or (as root, which initdb and postgres
# refuse) `postgres` if it exists, else a system user created for it.
pg_os_user() {
    if [ "$(id -u)" -ne 0 ]; then id -un; return; fi
    if id postgres >/dev/null 2>&1; then echo postgres; return; fi
    if ! id crowdfunding-pg >/dev/null 2>&1; then
        log "creating system user crowdfunding-pg for the private PostgreSQL cluster"
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin crowdfunding-pg
    fi
    echo crowdfunding-pg
}

as_pg_user() {
    local user="$1"; shift
    if [ "$user" = "$(id -un)" ]; then
        "$@"
    elif command -v runuser >/dev/null 2>&1; then
        runuser -u "$user" -- "$@"
    else
        su -s /bin/sh "$user" -c "$(printf '%q ' "$@")"
    fi
}

private_pg_up() {
    local bin user port
    bin="$(pg_bin_dir)" || die "no initdb/pg_ctl found (run app-server/dev/setup.sh, which installs postgresql)"
    user="$(pg_os_user)"
    mkdir -p "$PG_DIR"
    chown "$user" "$PG_DIR" 2>/dev/null || true
    as_pg_user "$user" test -w "$PG_DIR" || \
        die "user $user cannot write $PG_DIR (every parent directory must be searchable by $user)"

    if [ ! -f "$PGDATA_DIR/PG_VERSION" ]; then
        log "initialising a private PostgreSQL cluster in ${PGDATA_DIR#"$ROOT"/}"
        as_pg_user "$user" "$bin/initdb" -D "$PGDATA_DIR" -U postgres --auth=trust \
            --encoding=UTF8 --no-locale >"$PG_DIR/initdb.log" 2>&1 || {
            tail -n 20 "$PG_DIR/initdb.log" >&2; die "initdb failed"; }
    fi

    if as_pg_user "$user" "$bin/pg_ctl" -D "$PGDATA_DIR" status >/dev/null 2>&1; then
        port="$(sed -n 4p "$PGDATA_DIR/postmaster.pid")"
        log "private PostgreSQL already running on port $port"
    else
        port="$PRIVATE_PG_PORT"
        while port_open "$port"; do
            port=$((port + 1))
            [ "$port" -lt $((PRIVATE_PG_PORT + 100)) ] || die "no free port for PostgreSQL from $PRIVATE_PG_PORT"
        done
        log "starting private PostgreSQL on 127.0.0.1:$port"
        # No Unix socket (its path could be too long or unwritable): TCP on loopback only.
        as_pg_user "$user" "$bin/pg_ctl" -D "$PGDATA_DIR" -l "$PG_DIR/postgres.log" -w -t "$WAIT_SECONDS" \
            -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=''" start >/dev/null || {
            tail -n 20 "$PG_DIR/postgres.log" >&2; die "PostgreSQL did not start"; }
        printf '%s\n%s\n%s\n' "$bin" "$user" "$PGDATA_DIR" > "$RUN_DIR/postgres.cluster"
        started postgres
    fi
    wait_until "PostgreSQL on port $port" "$PG_DIR/postgres.log" pg_answers "$port"
    PG_URL_BASE="postgres://postgres@127.0.0.1:$port"
}

postgres_up() {
    if [ -n "${DATABASE_URL:-}" ]; then
        log "PostgreSQL: using DATABASE_URL"
        DATABASE_URL_OUT="$DATABASE_URL"
        if [ -n "${DATABASE_ADMIN_URL:-}" ]; then
            DATABASE_ADMIN_URL_OUT="$DATABASE_ADMIN_URL"
        else
            # Same server, database `postgres` (keeps any ?query).
            local base="${DATABASE_URL%%\?*}" query=""
            [ "$base" != "$DATABASE_URL" ] && query="?${DATABASE_URL#*\?}"
            local rest="${base#*://}"
            if [[ "$rest" == */* ]]; then base="${base%/*}"; fi
            DATABASE_ADMIN_URL_OUT="$base/postgres$query"
        fi
        local psql
        if psql="$(psql_cmd)"; then
            wait_until "PostgreSQL at DATABASE_URL" /dev/null "$psql" "$DATABASE_ADMIN_URL_OUT" -qtAXc 'SELECT 1' -o /dev/null
            local db="${DATABASE_URL%%\?*}"; db="${db#*://}"
            if [[ "$db" == */?* ]]; then
                ensure_database "$DATABASE_ADMIN_URL_OUT" "${db##*/}" || log "warning: could not create database ${db##*/}"
            fi
        fi
        return
    fi
    if [ "${FORCE_PRIVATE_PG:-0}" != 1 ] && pg_answers 5432; then
        log "PostgreSQL: reusing the server on 127.0.0.1:5432"
        PG_URL_BASE="postgres://postgres@127.0.0.1:5432"
    else
        private_pg_up
    fi
    DATABASE_URL_OUT="$PG_URL_BASE/$DB_NAME"
    DATABASE_ADMIN_URL_OUT="$PG_URL_BASE/postgres"
    # Loopback needs no TLS. Without it libpq leaves OpenSSL alone, whose exit-time clean-up most likely
    # raced pooled connections still open in other threads (measured on the API suite: 1 run in 4 had a
    # test process die with SIGSEGV or SIGABRT after its test had passed; 0 runs in 10 with TLS off).
    PGSSLMODE_OUT=disable
    ensure_database "$DATABASE_ADMIN_URL_OUT" "$DB_NAME"
}

postgres_down() {
    local file="$RUN_DIR/postgres.cluster"
    [ -f "$file" ] || return 0
    local bin user pgdata
    { read -r bin; read -r user; read -r pgdata; } < "$file"
    if as_pg_user "$user" "$bin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
        log "stopping private PostgreSQL"
        as_pg_user "$user" "$bin/pg_ctl" -D "$pgdata" stop -m fast -w >/dev/null
    fi
    rm -f "$file"
}

# --- localstripe and maildev ------------------------------------------------------------

localstripe_ok() { http_ok "http://127.0.0.1:$LOCALSTRIPE_PORT/js.stripe.com/v3/"; }
maildev_ok() { http_ok "http://127.0.0.1:$MAILDEV_WEB_PORT/api/healthz" && port_open "$SMTP_PORT"; }

localstripe_up() {
    if pid_alive "$RUN_DIR/localstripe.pid" localstripe_server.py || localstripe_ok; then
        log "localstripe: already answering on 127.0.0.1:$LOCALSTRIPE_PORT"
    else
        port_open "$LOCALSTRIPE_PORT" && die "port $LOCALSTRIPE_PORT is taken by something that is not localstripe (set LOCALSTRIPE_PORT)"
        [ -x "$VENV_DIR/bin/python" ] || die "no venv at $VENV_DIR (run app-server/dev/setup.sh)"
        log "localstripe: starting on 127.0.0.1:$LOCALSTRIPE_PORT"
        start_detached localstripe "$VENV_DIR/bin/python" "$DEV_DIR/localstripe_server.py" \
            --host 127.0.0.1 --port "$LOCALSTRIPE_PORT"
        started localstripe
    fi
    wait_until "localstripe on port $LOCALSTRIPE_PORT" "$LOG_DIR/localstripe.log" localstripe_ok
}

maildev_up() {
    local js="$DEV_DIR/node_modules/maildev/dist/bin/maildev.js"
    if pid_alive "$RUN_DIR/maildev.pid" maildev.js || maildev_ok; then
        log "maildev: already answering on 127.0.0.1:$SMTP_PORT (web $MAILDEV_WEB_PORT)"
    else
        for port in "$SMTP_PORT" "$MAILDEV_WEB_PORT"; do
            port_open "$port" && die "port $port is taken by something that is not maildev (set SMTP_PORT / MAILDEV_WEB_PORT)"
        done
        [ -f "$js" ] || die "maildev is not installed (run app-server/dev/setup.sh)"
        mkdir -p "$MAIL_DIR"
        log "maildev: starting, SMTP 127.0.0.1:$SMTP_PORT, web http://127.0.0.1:$MAILDEV_WEB_PORT"
        start_detached maildev node "$js" --smtp "$SMTP_PORT" --ip 127.0.0.1 \
            --web "$MAILDEV_WEB_PORT" --web-ip 127.0.0.1 --mail-directory "$MAIL_DIR"
        started maildev
    fi
    wait_until "maildev on ports $SMTP_PORT/$MAILDEV_WEB_PORT" "$LOG_DIR/maildev.log" maildev_ok
}

# stop_pid <name> <command line fragment>: stop a process this script started.
stop_pid() {
    local file="$RUN_DIR/$1.pid"
    [ -f "$file" ] || return 0
    if pid_alive "$file" "$2"; then
        local pid; pid="$(cat "$file")"
        log "stopping $1 (pid $pid)"
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do
            [ -d "/proc/$pid" ] || break
            sleep 0.2
        done
        [ -d "/proc/$pid" ] && kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
}

# --- commands --------------------------------------------------------------------------

cmd_up() {
    mkdir -p "$RUN_DIR" "$LOG_DIR"
    if [ -n "$RECORD_FILE" ]; then : > "$RECORD_FILE"; fi
    if [ ! -x "$VENV_DIR/bin/python" ] || [ ! -f "$DEV_DIR/node_modules/maildev/dist/bin/maildev.js" ]; then
        bash "$DEV_DIR/setup.sh"
    fi
    postgres_up
    localstripe_up
    maildev_up
    local tmp="$ENV_FILE.tmp"
    cat > "$tmp" <<EOF
# Written by app-server/dev/services.sh up; source it: . .data/services.env
export DATABASE_URL=$DATABASE_URL_OUT
export DATABASE_ADMIN_URL=$DATABASE_ADMIN_URL_OUT
export STRIPE_API_BASE=http://127.0.0.1:$LOCALSTRIPE_PORT/
export STRIPE_SECRET_KEY=sk_test_local
export STRIPE_WEBHOOK_SECRET=whsec_local
export SMTP_HOST=127.0.0.1
export SMTP_PORT=$SMTP_PORT
export MAILDEV_URL=http://127.0.0.1:$MAILDEV_WEB_PORT
EOF
    if [ -n "${PGSSLMODE_OUT:-}" ]; then echo "export PGSSLMODE=$PGSSLMODE_OUT" >> "$tmp"; fi
    mv "$tmp" "$ENV_FILE"
    log "services up; environment in ${ENV_FILE#"$ROOT"/}"
}

cmd_down() {
    if [ -n "$RECORD_FILE" ]; then
        # Only what the matching `up --record` started; a missing record means it started nothing.
        local names=""
        [ -f "$RECORD_FILE" ] && names="$(cat "$RECORD_FILE")"
        grep -qx maildev <<<"$names" && stop_pid maildev maildev.js
        grep -qx localstripe <<<"$names" && stop_pid localstripe localstripe_server.py
        grep -qx postgres <<<"$names" && postgres_down
        rm -f "$RECORD_FILE"
        if [ -n "$names" ]; then
            log "stopped what this run started: $(tr '\n' ' ' <<<"$names")"
        else
            log "this run started no service; nothing stopped"
        fi
        return 0
    fi
    stop_pid maildev maildev.js
    stop_pid localstripe localstripe_server.py
    postgres_down
    log "services started by this script are stopped"
}

cmd_env() {
    [ -f "$ENV_FILE" ] || die "no ${ENV_FILE#"$ROOT"/}; run: bash app-server/dev/services.sh up"
    cat "$ENV_FILE"
}

cmd_status() {
    local owner
    owner=$([ -f "$RUN_DIR/postgres.cluster" ] && echo "private cluster, ours" || echo "not ours")
    if [ -f "$ENV_FILE" ]; then grep -E '^export (DATABASE_URL|STRIPE_API_BASE|MAILDEV_URL)=' "$ENV_FILE"; fi
    echo "postgres: $owner"
    for s in localstripe:localstripe_server.py maildev:maildev.js; do
        if pid_alive "$RUN_DIR/${s%%:*}.pid" "${s#*:}"; then
            echo "${s%%:*}: running, ours (pid $(cat "$RUN_DIR/${s%%:*}.pid"))"
        else
            echo "${s%%:*}: not started by this script"
        fi
    done
}

case "$COMMAND" in
    up) cmd_up ;;
    down) cmd_down ;;
    env) cmd_env ;;
    status) cmd_status ;;
    *) echo "usage: $0 up|down [--record FILE] | env | status" >&2; exit 2 ;;
esac
