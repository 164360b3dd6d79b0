import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One operation: its fields and how one item's parameters become records. */
export interface PaycashlessOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

export type PaycashlessResource = 'bankAccount' | 'callback' | 'dedicatedAccount' | 'invoice' | 'payment' | 'payout' | 'taxRate';
