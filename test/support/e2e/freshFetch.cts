/**
 * A call that starts an execution (a webhook, a chat message), on a connection of its own.
 *
 * The tests' fetch (Node 20's) sends a call on an idle keep-alive connection when it has one. A
 * server closes an idle connection after its keep-alive timeout (5 s: n8n's, and the queue lab's
 * front proxy). When the test process stalls longer than that (a loaded 2-core CI machine; a Node
 * 20 process busy 6 s does it every time), the server's close and the next call cross: the call
 * goes out on a connection the server has shut and fails `ECONNRESET` before n8n reads it (stop 55's
 * CI failure: the money holds suite in queue mode). Such a call may move money, so it is never sent
 * again: it must not meet a closed connection at all. Here each call opens its own connection and
 * closes it after the answer.
 */
import * as http from 'http';
import { Readable } from 'stream';

/**
 * fetch's answer for one call on a new connection. `init` as fetch takes it (a string, a form or a
 * blob as the body, with the content type fetch would give it); a redirect is answered as is, as
 * fetch does with `redirect: 'manual'` (the calls that use this follow none).
 */
export async function freshFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
	const { signal, ...rest } = init;
	const asked = new Request(url, rest);
	const body = asked.method === 'GET' || asked.method === 'HEAD' ? undefined : Buffer.from(await asked.arrayBuffer());
	const headers: Record<string, string> = Object.fromEntries(asked.headers);
	return await new Promise((resolve, reject) => {
		const request = http.request(asked.url, {
			agent: false,
			method: asked.method,
			headers: { ...headers, connection: 'close', ...(body ? { 'content-length': String(body.length) } : {}) },
			signal: signal ?? undefined,
		});
		request.on('error', reject);
		// Answered once the headers come, the body read as it arrives (as fetch: an event stream's
		// status is read without waiting for its end).
		request.on('response', (answer) => {
			const answerHeaders = new Headers();
			for (let k = 0; k + 1 < answer.rawHeaders.length; k += 2) answerHeaders.append(answer.rawHeaders[k], answer.rawHeaders[k + 1]);
			const status = answer.statusCode ?? 0;
			const answered = { status, statusText: answer.statusMessage, headers: answerHeaders };
			if (status === 204 || status === 205 || status === 304) {
				answer.resume();
				resolve(new Response(null, answered));
			} else resolve(new Response(Readable.toWeb(answer) as unknown as ReadableStream<Uint8Array>, answered));
		});
		request.end(body);
	});
}
