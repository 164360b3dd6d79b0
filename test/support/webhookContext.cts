/** Moved to scripts/harness/webhookContext.cts (the schemas script runs the node with it too); kept here for the tests' imports. */
export * from '../../scripts/harness/webhookContext.cjs';
