#!/usr/bin/env bash
# The checks the publish workflow (.github/workflows/publish.yml) runs before `npm run release`,
# which itself lints and builds. The full suite (`npm test`, real n8n, browsers) is CI's
# `bash .ci/run` on main; a tag is only pushed from a main that passed it (docs/releasing.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run typecheck
npm run build
npm run pack:check
npm run test:unit
npm run test:tooling
