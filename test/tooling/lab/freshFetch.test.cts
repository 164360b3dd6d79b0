/**
 * test/support/e2e/freshFetch.cts: a call that starts an execution goes out on a connection of its
 * own, so a test process that stalls past the server's keep-alive timeout never sends it on a
 * connection the server has closed (stop 55's ECONNRESET).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { freshFetch } from '../../support/e2e/freshFetch.cjs';

/** Busy the event loop, as a loaded machine stalls the test process. */
function stall(ms: number): void {
	const until = Date.now() + ms;
	while (Date.now() < until);
}

describe('freshFetch', () => {
	let server: http.Server;
	let url: string;
	let connections = 0;
	const seen: Array<{ method?: string; body: string; type?: string }> = [];
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			let body = '';
			req.on('data', (chunk: Buffer) => (body += chunk.toString()));
			req.on('end', () => {
				seen.push({ method: req.method, body, type: req.headers['content-type'] });
				if (req.url === '/events') {
					// An event stream that does not end (n8n's MCP address answers a GET so).
					res.writeHead(200, { 'content-type': 'text/event-stream' });
					res.write('data: one\n\n');
					return;
				}
				if (req.url === '/empty') {
					res.writeHead(204).end();
					return;
				}
				res.writeHead(201, [['content-type', 'application/json'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']]).end(JSON.stringify({ got: body }));
			});
		});
		// Shorter than n8n's 5 s, so that the test's stall outlasts it in less time (at 2 s Node 20's
		// fetch keeps no connection alive at all).
		server.keepAliveTimeout = 3000;
		server.on('connection', () => connections++);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	it('sends the method, headers and body and answers as fetch does', async () => {
		const answer = await freshFetch(`${url}/hook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":"₦1"}' });
		expect(answer.status).toBe(201);
		expect(answer.headers.get('content-type')).toBe('application/json');
		expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
		expect(await answer.json()).toEqual({ got: '{"n":"₦1"}' });
		expect(seen.at(-1)).toEqual({ method: 'POST', body: '{"n":"₦1"}', type: 'application/json' });
		const empty = await freshFetch(`${url}/empty`);
		expect(empty.status).toBe(204);
		expect(await empty.text()).toBe('');
	});

	it('opens a connection per call, so a stall past the keep-alive timeout loses no call', async () => {
		const before = connections;
		// fetch here fails the second call ECONNRESET (Node 20): the server's idle timeout and the
		// test's timer both fall due in the stall, and the close runs first.
		expect((await freshFetch(`${url}/hook`, { method: 'POST', body: '0' })).status).toBe(201);
		await new Promise<void>((resolve) => {
			setTimeout(resolve, 1000);
			stall(4000);
		});
		expect((await freshFetch(`${url}/hook`, { method: 'POST', body: '1' })).status).toBe(201);
		expect((await freshFetch(`${url}/hook`, { method: 'POST', body: '2' })).status).toBe(201);
		expect(connections - before).toBe(3);
		expect(seen.slice(-3).map((request) => request.body)).toEqual(['0', '1', '2']);
	});

	it('answers an event stream once its headers come, as fetch does', async () => {
		const controller = new AbortController();
		const answer = await freshFetch(`${url}/events`, { signal: controller.signal });
		expect(answer.status).toBe(200);
		const reader = answer.body!.getReader();
		expect(Buffer.from((await reader.read()).value!).toString()).toBe('data: one\n\n');
		controller.abort();
		await expect(reader.read()).rejects.toThrow(/abort/i);
	});

	it('gives up when its signal aborts', async () => {
		const slow = http.createServer(() => undefined);
		await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
		try {
			await expect(freshFetch(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, { signal: AbortSignal.timeout(200) })).rejects.toThrow(/abort/i);
		} finally {
			slow.closeAllConnections();
			await new Promise((resolve) => slow.close(resolve));
		}
	});
});
