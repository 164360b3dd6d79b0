// n8n's community-package scanner (@n8n/scan-community-package), run offline.
// The real CLI only scans packages PUBLISHED on npm with provenance and downloads their GitHub
// source; its lint gate is `analyzePackage()`, run here on the same two legs:
//   tarball leg: `**/*.js` + `package.json` of the unpacked `npm pack` output
//   source leg:  SOURCE_FILE_PATTERNS (package.json, {nodes,credentials}/**/*.{js,ts,json}) of the sources
// Besides the gate's verdict (errors only) it counts every finding, warnings included.
// usage: node scan-local.mjs <unpacked-tarball-dir> <source-dir>   (needs `install.sh --with-scanner`)
// Prints one JSON line: { tarball: {passed, errors, warnings, details}, source: {...} }; exit 0 when both are clean.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The scanner install (scripts/n8n/lab.cts SCANNER_DIR), handed over by the caller.
const scannerDir = process.env.PAYCASHLESS_SCANNER_DIR;
if (!scannerDir) throw new Error('PAYCASHLESS_SCANNER_DIR is not set (run through test/e2e/scanner.test.cts)');
const scannerRoot = path.join(scannerDir, 'node_modules', '@n8n', 'scan-community-package');
const { analyzePackage, buildScanConfig, SOURCE_FILE_PATTERNS } = await import(
	pathToFileURL(path.join(scannerRoot, 'scanner', 'scanner.mjs')).href
);
const requireFromScanner = createRequire(path.join(scannerRoot, 'package.json'));
const { ESLint } = requireFromScanner('eslint');
const glob = requireFromScanner('fast-glob');

async function leg(dir, patterns) {
	const gate = await analyzePackage(dir, patterns);
	// Same config and files as the gate, to count warnings too.
	const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await buildScanConfig() });
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	const results = files.length ? await eslint.lintFiles(files) : [];
	const findings = results.flatMap((r) =>
		r.messages.map((m) => `${path.relative(dir, r.filePath)}:${m.line}:${m.column} ${m.severity === 2 ? 'error' : 'warning'} ${m.ruleId ?? ''} ${m.message}`),
	);
	return {
		passed: gate.passed,
		message: gate.message ?? null,
		files: files.map((f) => path.relative(dir, f)).sort(),
		errors: results.reduce((n, r) => n + r.errorCount, 0),
		warnings: results.reduce((n, r) => n + r.warningCount, 0),
		findings,
	};
}

const [pkgDir, srcDir] = process.argv.slice(2);
if (!pkgDir || !srcDir) {
	console.error('usage: node scan-local.mjs <unpacked-tarball-dir> <source-dir>');
	process.exit(2);
}
const report = { tarball: await leg(path.resolve(pkgDir), ['**/*.js', 'package.json']), source: await leg(path.resolve(srcDir), SOURCE_FILE_PATTERNS) };
console.log(JSON.stringify(report));
const clean = (r) => r.passed && r.errors === 0 && r.warnings === 0;
process.exit(clean(report.tarball) && clean(report.source) ? 0 : 1);
