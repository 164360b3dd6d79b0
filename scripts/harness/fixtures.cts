/** Node parameters several test files start from; each test spreads and changes what it needs. */
import type { INodeParameters } from 'n8n-workflow';

/** Dedicated Account → Create for an individual, with every required field filled in. */
export const individualAccountParameters: INodeParameters = {
	resource: 'dedicatedAccount',
	operation: 'create',
	accountType: 'individual',
	currency: 'NGN',
	preferredBank: 'safehaven_mfb',
	email: 'tunde@example.com',
	firstName: 'Tunde',
	lastName: 'Bello',
	phoneNumber: '+2348012345678',
	dateOfBirth: '1990-04-25',
	bvn: '22212345678',
};

/** Dedicated Account → Create for a business, its details as JSON. */
export const businessAccountParameters: INodeParameters = {
	resource: 'dedicatedAccount',
	operation: 'create',
	accountType: 'business',
	currency: 'USD',
	preferredBank: 'safehaven_mfb',
	businessDetailsJson: '{"accountName": "Acme Ltd", "email": "finance@acme.example", "rcNumber": "RC123"}',
};

/** Tax Rate → Create: Nigerian VAT, 7.5 %, exclusive. */
export const vatTaxRateParameters: INodeParameters = {
	resource: 'taxRate',
	operation: 'create',
	name: 'VAT',
	percentage: 7.5,
	taxType: 'vat',
	inclusive: false,
};
