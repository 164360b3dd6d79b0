/**
 * The floor of the pagination benchmark: what hand-written code outside n8n does at best. A
 * plain loop of signed `fetch` calls (signed with the package's own `signPaycashlessRequest`),
 * 100 records per page, following `cursor` until `hasMore` is false, keeping every record.
 *
 * Runs as its own process (started by bench/pagination.cts), so it neither shares an event loop
 * with the emulator nor with the bench: reads `{ baseUrl, apiKey, apiSecret, path, pageSize }`
 * as JSON on stdin (the secret never goes on a command line), warms up on two pages, then
 * prints `{ ms, records, distinct, pages }` as JSON on stdout.
 */
import { signPaycashlessRequest } from '../credentials/PaycashlessApi.credentials';

interface FloorInput {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	path: string;
	pageSize: number;
}

interface Page {
	hasMore: boolean;
	cursor: string | null;
	data: Array<{ id: string }>;
}

async function getPage(input: FloorInput, cursor: string | undefined): Promise<Page> {
	const query = new URLSearchParams({ limit: String(input.pageSize) });
	if (cursor) query.set('cursor', cursor);
	const url = `${input.baseUrl}${input.path}?${query.toString()}`;
	const signed = signPaycashlessRequest({ apiKey: input.apiKey, apiSecret: input.apiSecret, bodilessSigning: 'documented' }, { method: 'GET', url }, Date.now());
	const response = await fetch(url, { headers: signed.headers as Record<string, string> });
	if (response.status !== 200) throw new Error(`floor: HTTP ${response.status} on ${input.path}: ${(await response.text()).slice(0, 300)}`);
	return (await response.json()) as Page;
}

async function fetchAll(input: FloorInput, maxPages = Infinity): Promise<{ records: Array<{ id: string }>; pages: number }> {
	const records: Array<{ id: string }> = [];
	let cursor: string | undefined;
	let pages = 0;
	while (pages < maxPages) {
		const page = await getPage(input, cursor);
		pages += 1;
		records.push(...page.data);
		if (!page.hasMore || !page.cursor) break;
		cursor = page.cursor;
	}
	return { records, pages };
}

async function main(): Promise<void> {
	let text = '';
	for await (const chunk of process.stdin) text += String(chunk);
	const input = JSON.parse(text) as FloorInput;
	await fetchAll(input, 2);
	const started = performance.now();
	const { records, pages } = await fetchAll(input);
	const ms = performance.now() - started;
	process.stdout.write(`${JSON.stringify({ ms, records: records.length, distinct: new Set(records.map((r) => r.id)).size, pages })}\n`);
}

main().catch((error: Error) => {
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
