#!/usr/bin/env bash
# Installs the browser the browser tests (test/browser/) drive: Debian's `chromium` package, at
# /usr/bin/chromium. Idempotent: does nothing when it is there. playwright-core (a devDependency)
# drives it and never downloads a browser of its own. Needs root (or passwordless sudo) the first time.
set -euo pipefail
BROWSER="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$BROWSER" ]; then
	exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
		echo "[browser] $BROWSER is missing and this user cannot install Debian packages: run 'apt-get install -y chromium' as root" >&2
		exit 1
	fi
fi
# One apt-get at a time on this machine (also scripts/n8n/install-queue.sh; two jest workers, or two sessions).
exec 9>"${TMPDIR:-/tmp}/paycashless-apt.lock"
flock 9
if [ -x "$BROWSER" ]; then exit 0; fi
echo "[browser] installing Debian's chromium (apt-get) ..." >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium >&2
[ -x "$BROWSER" ] || { echo "[browser] apt-get finished but $BROWSER is missing" >&2; exit 1; }
