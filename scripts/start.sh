#!/usr/bin/env bash
# `npm start`: a local n8n with this package installed, ready to try (see scripts/n8n/README.md).
# Installs what is missing (project dependencies, Node 24 + n8n into ~/.cache/n8n-nodes-paycashless/), then hands over to
# scripts/n8n/start.cts, which builds, packs and installs the package into n8n, starts the emulator
# (or uses the live API when PAYCASHLESS_API_KEY and PAYCASHLESS_API_SECRET are set) and n8n, and
# stops both on Ctrl-C.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ]; then
	echo "[start] installing project dependencies (npm ci, about half a minute) ..."
	# --prefer-offline: packages already in npm's cache (any earlier install on this machine) are
	# taken from it without asking the registry whether they changed (a lockfile pins them anyway).
	npm ci --no-audit --no-fund --loglevel=error --prefer-offline
fi

bash scripts/n8n/install.sh

# `npm start -- --queue`: n8n's queue mode (PostgreSQL, Redis, main, 2 workers, a webhook processor).
if [ "${1:-}" = "--queue" ]; then
	bash scripts/n8n/install-queue.sh
	exec node node_modules/ts-node/dist/bin.js --transpile-only scripts/n8n/start-queue.cts
fi

# exec: this shell becomes the Node process, so Ctrl-C / SIGTERM reach start.ts, whose handlers
# stop n8n (its own process group) and the emulator before exiting.
exec node node_modules/ts-node/dist/bin.js --transpile-only scripts/n8n/start.cts
