const path = require('path');
const { task, src, dest } = require('gulp');

// Icons, codex files and output schemas (nodes/*/__schema__, scripts/output-schemas.cts) are not
// touched by tsc: copy them next to the compiled nodes and credentials.
task('build:icons', copyAssets);

function copyAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist')));
}
