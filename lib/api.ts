/**
 * Facts about the Paycashless API that the credential, the nodes and the emulator share.
 * Pure constants; nothing here imports from the credential or the nodes.
 */

/** Where the live and test APIs answer (the key pair chooses the mode). */
export const PAYCASHLESS_DEFAULT_BASE_URL = 'https://api.paycashless.com';

/** The credential type's name, as nodes ask for it. */
export const CREDENTIAL_NAME = 'paycashlessApi';

/** This package's pages, where the nodes' and the credential's Docs links point (test/tooling/repo/docs.test.cts checks each exists). */
export const PACKAGE_DOCS_URL = 'https://github.com/paycashless/n8n-nodes-paycashless/blob/main';
