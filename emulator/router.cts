/** A tiny method + path router: patterns like `/v1/payouts/:id`; params are URL-decoded. */
import type { CallbackDispatcher } from './callbacks.cjs';
import type { Store } from './store.cjs';

/** What every handler may use. */
export interface Core {
	readonly store: Store;
	readonly dispatcher: CallbackDispatcher;
	/** e.g. `http://127.0.0.1:4010` */
	readonly baseUrl: string;
	/** The emulator clock, Unix seconds. */
	nowSeconds(): number;
}

interface RouteContext {
	params: Record<string, string>;
	query: Record<string, string>;
	/** Parsed JSON body (undefined when none or not JSON). */
	body: unknown;
	rawBody: string;
	/** Address of the caller. */
	ip: string;
}

export interface Reply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;

interface Route {
	method: string;
	pattern: RegExp;
	names: string[];
	handler: Handler;
}

export class Router {
	private readonly routes: Route[] = [];

	add(method: string, path: string, handler: Handler): this {
		const names: string[] = [];
		const source = path
			.split('/')
			.map((segment) => {
				if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
				names.push(segment.slice(1));
				return '([^/]+)';
			})
			.join('/');
		this.routes.push({ method, pattern: new RegExp(`^${source}/?$`), names, handler });
		return this;
	}

	match(method: string, path: string): { handler: Handler; params: Record<string, string> } | undefined {
		for (const route of this.routes) {
			if (route.method !== method) continue;
			const found = route.pattern.exec(path);
			if (!found) continue;
			const params: Record<string, string> = {};
			route.names.forEach((name, index) => {
				params[name] = safeDecode(found[index + 1]);
			});
			return { handler: route.handler, params };
		}
		return undefined;
	}
}

function safeDecode(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}
