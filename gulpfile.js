const path = require('path');
const { task, src, dest } = require('gulp');

// Icons and codex files are not touched by tsc: copy them next to the compiled nodes and credentials.
task('build:icons', copyAssets);

function copyAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist')));
}
