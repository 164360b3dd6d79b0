/** Moved to scripts/harness/executeContext.cts (the schemas script runs the node with it too); kept here for the tests' imports. */
export * from '../../scripts/harness/executeContext.cjs';
