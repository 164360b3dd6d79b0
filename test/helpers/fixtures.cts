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
