/**
 * Webhook lifecycle methods for webhooks with nothing to register anywhere: Paycashless has no
 * webhook registration API (the URL travels in each request's `callbackUrl`), and the Create and
 * Wait resume URL is per execution. n8n still wants the three methods.
 */
import type { IHookFunctions } from 'n8n-workflow';

export const nothingToRegister = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async create(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async delete(this: IHookFunctions): Promise<boolean> {
			return true;
		},
	},
};
