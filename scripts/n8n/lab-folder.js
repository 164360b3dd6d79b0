'use strict';
/**
 * The checkout's lab folder, `<checkout>/.n8n-lab` (git-ignored): n8n's data of `npm start` and of
 * the tests, the packed tarball, unpacked copies of the package, the local registry's storage.
 *
 * It is a symbolic link to a folder outside the checkout, so that nothing that walks the checkout
 * walks the lab. `n8n-node lint` runs ESLint on `.` with n8n's default config (which strict mode
 * keeps unchanged and which ignores only `dist`), and that config lints every `**\/*.ts` it finds:
 * after a test run the lab holds several unpacked copies of the package with their `.d.ts` files,
 * n8n user folders and databases, and lint took minutes instead of seconds. ESLint lists a
 * folder's entries without following symbolic links, so it never enters the lab.
 *
 * The folder: `$XDG_STATE_HOME/n8n-nodes-paycashless/labs/<checkout folder name>-<hash of its
 * path>` (default `~/.local/state/...`). A lab whose checkout is gone, or no longer links to it, is
 * removed when a checkout's link is made. A `.n8n-lab` that is a real folder (made before this)
 * is used as it is; remove it once to get the link. `LAB=<folder>` overrides all of this.
 *
 * usage: node scripts/n8n/lab-folder.js [<checkout>]   prints the lab folder, making it if needed
 */
const { createHash } = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

function labsHome() {
	const state = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
	return path.join(state, 'n8n-nodes-paycashless', 'labs');
}

function realpathOrEmpty(file) {
	try {
		return fs.realpathSync(file);
	} catch {
		return '';
	}
}

/** Labs whose checkout is gone or links elsewhere (a minute's grace: a lab being made right now). */
function removeOrphans(home, keep) {
	for (const name of fs.readdirSync(home)) {
		const lab = path.join(home, name);
		if (lab === keep) continue;
		let checkout = '';
		try {
			checkout = fs.readFileSync(path.join(lab, '.checkout'), 'utf8').trim();
			if (Date.now() - fs.statSync(lab).mtimeMs < 60_000) continue;
		} catch {
			continue;
		}
		if (realpathOrEmpty(path.join(checkout, '.n8n-lab')) !== realpathOrEmpty(lab)) fs.rmSync(lab, { recursive: true, force: true });
	}
}

/** `<root>/.n8n-lab`, made (as a link to a folder outside the checkout) when missing. */
function labFolder(root) {
	const link = path.join(root, '.n8n-lab');
	if (realpathOrEmpty(link)) {
		// A checkout moved with its link: the lab follows it (and is not taken for an orphan).
		const marker = path.join(link, '.checkout');
		if (fs.lstatSync(link).isSymbolicLink() && fs.readFileSync(marker, { encoding: 'utf8', flag: 'a+' }).trim() !== path.resolve(root)) fs.writeFileSync(marker, `${path.resolve(root)}\n`);
		return link;
	}
	const home = labsHome();
	const hash = createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 12);
	const target = path.join(home, `${path.basename(path.resolve(root))}-${hash}`);
	fs.mkdirSync(target, { recursive: true });
	fs.writeFileSync(path.join(target, '.checkout'), `${path.resolve(root)}\n`);
	removeOrphans(home, target);
	// A link left pointing at a lab that was removed.
	if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(link);
	try {
		fs.symlinkSync(target, link, 'dir');
	} catch (error) {
		// Another process made it at the same moment.
		if (error.code !== 'EEXIST') throw error;
	}
	return link;
}

module.exports = { labFolder, labsHome };

if (require.main === module) process.stdout.write(`${labFolder(path.resolve(process.argv[2] || path.join(__dirname, '..', '..')))}\n`);
