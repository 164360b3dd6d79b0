#!/usr/bin/env node
// Checks what `npm pack` would publish: only dist/, README, LICENSE, package.json (and CHANGELOG,
// which npm adds by itself); every node and credential listed in package.json's n8n section is
// in dist/ with its icons and codex file; no source, test, emulator or secrets.
const { execFileSync } = require('child_process');
const path = require('path');

const root = path.resolve(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
const files = JSON.parse(out)[0].files.map((f) => f.path);
const problems = [];

const allowedTop = new Set(['README.md', 'LICENSE', 'LICENSE.md', 'package.json', 'CHANGELOG.md']);
for (const file of files) {
	if (!file.startsWith('dist/') && !allowedTop.has(file)) problems.push(`unexpected file in the tarball: ${file}`);
	if (/\.test\.|(^|\/)(test|emulator|bench|scripts|examples)\//.test(file)) problems.push(`not for publishing: ${file}`);
	// A source map points stack traces at .ts files the package does not ship: none are emitted.
	if (/\.map$/.test(file)) problems.push(`source map in the tarball (its .ts sources are not shipped): ${file}`);
}
for (const needed of ['README.md', 'LICENSE', 'package.json']) {
	if (!files.includes(needed)) problems.push(`missing from the tarball: ${needed}`);
}
const listed = [...pkg.n8n.credentials, ...pkg.n8n.nodes];
for (const entry of listed) {
	if (!files.includes(entry)) problems.push(`package.json lists ${entry} but the tarball lacks it (run npm run build first)`);
}
for (const node of pkg.n8n.nodes) {
	const codex = node.replace(/\.js$/, '.json');
	if (!files.includes(codex)) problems.push(`codex file missing: ${codex}`);
}
for (const icon of ['dist/nodes/Paycashless/paycashless.svg', 'dist/nodes/Paycashless/paycashless.dark.svg']) {
	if (!files.includes(icon)) problems.push(`icon missing: ${icon}`);
}
// The output schemas n8n's editor reads before a node has run (scripts/output-schemas.cts): every
// source file, at the same place under dist/.
const schemaRoot = path.join(root, 'nodes');
const fs = require('fs');
const schemas = fs
	.readdirSync(schemaRoot, { recursive: true, encoding: 'utf8' })
	.map((file) => file.split(path.sep).join('/'))
	.filter((file) => /(^|\/)__schema__\/.+\.json$/.test(file));
if (schemas.length === 0) problems.push('no output schemas under nodes/*/__schema__ (npm run schemas)');
for (const file of schemas) {
	if (!files.includes(`dist/nodes/${file}`)) problems.push(`output schema missing: dist/nodes/${file} (run npm run build first)`);
}
if (pkg.dependencies && Object.keys(pkg.dependencies).length) problems.push('package.json has runtime dependencies');

if (problems.length) {
	process.stderr.write(`pack check failed:\n- ${problems.join('\n- ')}\n`);
	process.exit(1);
}
process.stdout.write(`pack check passed: ${files.length} files (${schemas.length} output schemas), all under dist/ or README/LICENSE/package.json/CHANGELOG\n`);
