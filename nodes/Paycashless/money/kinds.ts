/**
 * What a create does with money, and so which Money Limits it takes: `payout` (money leaves the
 * account), `payment` (asks a customer to pay now), `invoice` (e-mails a customer a request to pay).
 */
export const MONEY_KINDS = ['payout', 'payment', 'invoice'] as const;
export type MoneyKind = (typeof MONEY_KINDS)[number];
