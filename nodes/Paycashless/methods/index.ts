import { searchDedicatedAccounts, searchInvoices, searchPayments, searchPayouts } from './listSearch';

/** The list searches the resource locators name (`searchListMethod`, actions/fields/locators.ts). */
export const listSearch = { searchPayments, searchPayouts, searchInvoices, searchDedicatedAccounts };
