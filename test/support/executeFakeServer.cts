/**
 * A tiny local HTTP server answering from a function: for answers the emulator never gives
 * (broken cursors, odd error bodies, HTML from a proxy).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

export interface FakeRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingMessage['headers'];
	body: string;
}

export interface FakeAnswer {
	status?: number;
	/** Object → JSON; string → sent as is. */
	body?: unknown;
	contentType?: string;
}

export interface FakeServer {
	baseUrl: string;
	requests: FakeRequest[];
	close(): Promise<void>;
}

export async function startFakeServer(answer: (request: FakeRequest, index: number) => FakeAnswer): Promise<FakeServer> {
	const requests: FakeRequest[] = [];
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://localhost');
			const request: FakeRequest = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams.entries()),
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(request);
			const reply = answer(request, requests.length - 1);
			const isText = typeof reply.body === 'string';
			res.statusCode = reply.status ?? 200;
			res.setHeader('Content-Type', reply.contentType ?? (isText ? 'text/html' : 'application/json'));
			res.end(reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		close: async () =>
			await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
	};
}
