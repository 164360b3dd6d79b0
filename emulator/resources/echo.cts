/**
 * GET and POST /v1/emulator/echo: an endpoint of the emulator only (Paycashless has none like it)
 * that the Paycashless node does not model. It answers, after the same key and signature checks
 * as every other endpoint, with what it received, so the HTTP Request node's route to endpoints
 * the node lacks can be shown and tested.
 */
import type { Router } from '../router.cjs';

const ECHO_PATH = '/v1/emulator/echo';

export function registerEcho(router: Router): void {
	for (const method of ['GET', 'POST']) {
		router.add(method, ECHO_PATH, (ctx) => ({
			status: 200,
			body: { echo: true, method, path: ECHO_PATH, query: ctx.query, body: ctx.body ?? null },
		}));
	}
}
