// Runs one command and ties its life to the process that started us: when our stdin closes
// (the parent exited, even by SIGKILL or a crash), or on SIGTERM/SIGINT, the command gets
// SIGTERM, and after a grace period the whole process group (n8n and its task runner) SIGKILL.
// usage (from scripts/n8n/lab.cts): spawn(node, [supervise.js, cmd, ...args], { detached: true, stdio: ['pipe', log, log] })
'use strict';
const { spawn } = require('child_process');

const [command, ...args] = process.argv.slice(2);
// scripts/n8n/lab.cts STOP_GRACE_MS sets it.
const GRACE_MS = Number(process.env.SUPERVISE_GRACE_MS || 45000);
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
let ending = false;

function killGroup() {
	try {
		process.kill(-process.pid, 'SIGKILL');
	} catch {
		process.exit(1);
	}
}

function end(reason) {
	if (ending) return;
	ending = true;
	process.stdout.write(`[supervise] ${reason}: stopping ${command}\n`);
	child.kill('SIGTERM');
	setTimeout(killGroup, GRACE_MS).unref();
}

process.on('SIGTERM', () => end('SIGTERM'));
process.on('SIGINT', () => end('SIGINT'));
process.on('SIGHUP', () => end('SIGHUP'));
process.stdin.on('end', () => end('parent gone'));
process.stdin.on('error', () => end('parent gone'));
process.stdin.resume();

child.on('error', (error) => {
	process.stdout.write(`[supervise] cannot start ${command}: ${error.message}\n`);
	process.exit(127);
});
child.on('exit', (code, signal) => {
	// Leftovers of the command (its task runner) go with it.
	if (ending) killGroup();
	process.exit(code ?? (signal ? 1 : 0));
});
