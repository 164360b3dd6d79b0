/** Moved to scripts/harness/pollContext.cts (the schemas script runs the node with it too); kept here for the tests' imports. */
export * from '../../scripts/harness/pollContext.cjs';
