#!/usr/bin/env bash
# A throwaway PostgreSQL server for the PostgreSQL store's tests and CI, from the system's
# PostgreSQL: a fresh data directory under $TMPDIR, loopback only, a fixed non-default port,
# trust authentication, one database.
#
#   Scripts/postgres.sh start   # initdb, start, create the database; prints the URL
#   Scripts/postgres.sh url     # prints the URL of the running server
#   Scripts/postgres.sh restart [seconds]  # stops the server, waits, starts it again on its data
#   Scripts/postgres.sh stop    # stops the server and removes its data directory
#
#   export MANAGEDGEN_POSTGRES_URL=$(Scripts/postgres.sh start)
#   swift test --filter PostgreSQLStoreTests
#
# PostgreSQL refuses to run as root: as root the server runs as the `postgres` user (else
# `nobody`), which owns the data directory. Settings: MANAGEDGEN_POSTGRES_PORT (54329).
set -euo pipefail

port=${MANAGEDGEN_POSTGRES_PORT:-54329}
database=managedgen
data_directory="${TMPDIR:-/tmp}/managedgen-postgres-$port"
log_file="$data_directory.log"

# The server's programs: on the PATH, else where Debian's postgresql package puts them.
find_bin() {
    local program
    if program=$(command -v pg_ctl 2>/dev/null); then
        dirname "$(readlink -f "$program")"
        return
    fi
    for candidate in /usr/lib/postgresql/*/bin /usr/local/pgsql/bin /opt/homebrew/bin /usr/local/opt/postgresql*/bin; do
        if [ -x "$candidate/pg_ctl" ]; then
            echo "$candidate"
            return
        fi
    done
    echo "postgres.sh: no pg_ctl found (install PostgreSQL: apt-get install -y postgresql)" >&2
    exit 1
}
bin=$(find_bin)

# Runs a command as the server's user: as root, a user PostgreSQL accepts.
server_user=""
if [ "$(id -u)" = 0 ]; then
    if id postgres >/dev/null 2>&1; then server_user=postgres; else server_user=nobody; fi
fi
as_server_user() {
    if [ -n "$server_user" ]; then
        runuser -u "$server_user" -- "$@"
    else
        "$@"
    fi
}

# Starts the server on the data directory as it is.
start_server() {
    # Sockets go into the data directory: /var/run/postgresql may not exist or be writable.
    as_server_user "$bin/pg_ctl" -D "$data_directory" -l "$log_file" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $data_directory -c max_connections=100 -c fsync=off" start >/dev/null
}

url() { echo "postgres://${server_user:-$(id -un)}@127.0.0.1:$port/$database"; }

case "${1:-}" in
start)
    if as_server_user "$bin/pg_ctl" -D "$data_directory" status >/dev/null 2>&1; then
        echo "postgres.sh: a server already runs on $data_directory" >&2
        url
        exit 0
    fi
    rm -rf "$data_directory"
    mkdir -p "$data_directory"
    touch "$log_file"
    if [ -n "$server_user" ]; then chown "$server_user" "$data_directory" "$log_file"; fi
    chmod 700 "$data_directory"
    as_server_user "$bin/initdb" -D "$data_directory" --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
        ${server_user:+--username="$server_user"} >/dev/null
    start_server
    as_server_user "$bin/createdb" -h 127.0.0.1 -p "$port" ${server_user:+-U "$server_user"} "$database"
    url
    ;;
restart)
    # A server going away under its clients and coming back with their data (the PostgreSQL
    # store's connection-fault tests): a fast stop ends every connection, as a restart does.
    as_server_user "$bin/pg_ctl" -D "$data_directory" -m fast -w stop >/dev/null
    sleep "${2:-0}"
    start_server
    ;;
stop)
    if [ -d "$data_directory" ]; then
        as_server_user "$bin/pg_ctl" -D "$data_directory" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$data_directory" "$log_file"
    fi
    ;;
url)
    url
    ;;
*)
    echo "usage: $0 start|restart [seconds]|stop|url" >&2
    exit 2
    ;;
esac
