#!/usr/bin/env bash
# Refuses a release whose tag (0.2.0 or v0.2.0) is not package.json's version.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag="${1:?usage: tag-matches-version.sh <tag>}"
version="$(node -p "require('./package.json').version")"
if [ "${tag#v}" != "$version" ]; then
	echo "The tag $tag is not package.json's version $version: bump the version (npm version), commit, then tag." >&2
	exit 1
fi
echo "tag $tag = version $version"
