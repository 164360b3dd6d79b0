#!/usr/bin/env bash
# Installs Verdaccio (a local npm registry, from the npm registry) into
# $PAYCASHLESS_TOOLS/verdaccio-<version> (default ~/.cache/n8n-nodes-paycashless), shared by every
# checkout on the machine. The tests publish the package to it and let n8n's own community-package
# installer install it from there (scripts/n8n/registry.cts). Idempotent: a second run is a version check.
set -euo pipefail
# npm hands its own settings down as npm_config_* when this runs under npm test / npm start: drop them.
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(npm_config_[A-Za-z0-9_]*\)=.*/\1/p')
# Also in scripts/n8n/registry.cts (VERDACCIO_VERSION).
VERDACCIO_VERSION=6.10.4
PAYCASHLESS_TOOLS=${PAYCASHLESS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-paycashless}
dir=$PAYCASHLESS_TOOLS/verdaccio-$VERDACCIO_VERSION
mkdir -p "$PAYCASHLESS_TOOLS"
log() { echo "[registry:install] $*"; }

# One install of this folder at a time on this machine (every install folder has its own lock, as in install.sh).
exec 9>"$PAYCASHLESS_TOOLS/.verdaccio-$VERDACCIO_VERSION.lock"
flock 9

pkg=$dir/node_modules/verdaccio/package.json
if [ "$(node -p "require('$pkg').version" 2>/dev/null || true)" = "$VERDACCIO_VERSION" ]; then
	log "verdaccio $VERDACCIO_VERSION already installed"
	exit 0
fi
log "installing verdaccio $VERDACCIO_VERSION into $dir"
started=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir"
# Its own package.json: npm must not walk up to a project (whose .npmrc would apply).
# verdaccio-audit asks for node-fetch by the dist-tag "cjs" (2.7.0 on npmjs.org), which the registry
# reached here does not carry: pin it to that version.
echo '{"name":"paycashless-lab-verdaccio","private":true,"overrides":{"node-fetch":"2.7.0"}}' > "$dir/package.json"
(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error --prefer-offline "verdaccio@$VERDACCIO_VERSION")
[ "$(node -p "require('$pkg').version")" = "$VERDACCIO_VERSION" ] || { log "verdaccio did not install"; exit 1; }
log "installed in $(($(date +%s) - started)) s"
