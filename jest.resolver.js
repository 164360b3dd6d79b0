// Resolves `./x.cjs` to the CommonJS TypeScript source `./x.cts` when there is no `x.cjs` file
// (what TypeScript and ts-node's experimentalResolver do); everything else as jest does.
const fs = require('fs');
const path = require('path');

module.exports = (request, options) => {
	if (request.startsWith('.') && request.endsWith('.cjs')) {
		const source = path.resolve(options.basedir, `${request.slice(0, -4)}.cts`);
		if (!fs.existsSync(path.resolve(options.basedir, request)) && fs.existsSync(source)) return source;
	}
	return options.defaultResolver(request, options);
};
