/** Customers are not a resource of their own here: their id is derived from the email. */
import { createHash } from 'crypto';

import type { Customer } from './models.cjs';

export function customerId(emailOrName: string): string {
	return `cus_${createHash('md5').update(emailOrName.trim().toLowerCase()).digest('hex').slice(0, 24)}`;
}

export function buildCustomer(input: { email: string; name?: string; phoneNumber?: string; address?: string; reference?: string }): Customer {
	return {
		id: customerId(input.email),
		name: input.name ?? '',
		email: input.email,
		phoneNumber: input.phoneNumber ?? '',
		address: input.address ?? '',
		reference: input.reference ?? '',
		isBlacklisted: false,
		liveMode: false,
	};
}
