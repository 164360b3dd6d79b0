#!/usr/bin/env bash
# Installs what n8n's queue mode needs besides n8n itself: PostgreSQL and Redis, from Debian packages,
# when they are missing. Idempotent: a second run only checks (well under a second).
#
# Only the programs are installed. The lab never uses a system service: scripts/n8n/queue.cts runs its
# own Postgres and Redis on free loopback ports with their data under the lab folder. Services that the
# packages' install scripts would start are kept from starting (policy-rc.d answers "not now").
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(npm_config_[A-Za-z0-9_]*\)=.*/\1/p')
# shellcheck source=env.sh
source "$HERE/env.sh"
# One apt-get at a time on this machine (also scripts/browser/install.sh, e.g. both started by one test run).
exec 9>"${TMPDIR:-/tmp}/paycashless-apt.lock"
flock 9

log() { echo "[n8n:install-queue] $*"; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
have_pg() { local b; b=$(pg_bin); [ -n "$b" ] && [ -x "$b/initdb" ] && [ -x "$b/postgres" ]; }
have_redis() { command -v redis-server >/dev/null 2>&1; }

missing=()
have_pg || missing+=(postgresql)
have_redis || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		log "missing: ${missing[*]}. Install them (sudo apt-get install -y ${missing[*]}) and run this again."
		exit 1
	fi
	log "installing ${missing[*]} (Debian packages)"
	policy=/usr/sbin/policy-rc.d
	made_policy=0
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' > "$policy"
		chmod +x "$policy"
		made_policy=1
	fi
	trap '[ "$made_policy" = 1 ] && rm -f "$policy"' EXIT
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	have_pg || { log "postgresql did not install"; exit 1; }
	have_redis || { log "redis-server did not install"; exit 1; }
fi
# Postgres refuses to run as root: the lab runs it as the "postgres" user the package creates.
if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
	log "no postgres user (expected from the postgresql package)"
	exit 1
fi
log "ready: $("$(pg_bin)/postgres" --version), $(redis-server --version | cut -d' ' -f1-3)"
