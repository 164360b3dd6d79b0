/**
 * `npm run docs`: writes every generated region of the docs (./regions.cts) from the code: the
 * Operations tables (./operations.cts), docs/fields.md (./fields.cts), docs/ai-agent.md's tables of
 * what the tool offers (./tool.cts).
 * `--check` writes nothing and exits 1 when a file differs (test/tooling/repo/generatedDocs.test.cts
 * runs the same check). A new generator is one more line in GENERATORS.
 */
import * as fs from 'fs';
import * as path from 'path';

import { fieldsRegions } from './fields.cjs';
import { operationRegions } from './operations.cjs';
import { applied, ROOT, type Region } from './regions.cjs';
import { toolRegions } from './tool.cjs';

export const GENERATORS: Array<() => Promise<Region[]>> = [operationRegions, fieldsRegions, toolRegions];

/** Every file the generators write, with its text now and as written. */
export async function generatedDocs(): Promise<ReturnType<typeof applied>> {
	const regions: Region[] = [];
	for (const generate of GENERATORS) regions.push(...(await generate()));
	return applied(regions);
}

async function main(): Promise<void> {
	const check = process.argv.includes('--check');
	const differs = (await generatedDocs()).filter(({ current, written }) => current !== written);
	if (!check) for (const { file, written } of differs) fs.writeFileSync(path.join(ROOT, file), written);
	process.stdout.write(`${differs.length} ${check ? 'differ' : 'written'}${differs.length ? `: ${differs.map(({ file }) => file).join(', ')}` : ''}\n`);
	if (check && differs.length) process.exitCode = 1;
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exitCode = 1;
	});
}
