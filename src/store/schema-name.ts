import { ConfigError } from '../common/errors.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are kept to plain lowercase identifiers so they never need quoting anywhere. */
export function assertSchemaName(name: string): void {
  if (!SCHEMA_NAME.test(name)) {
    throw new ConfigError('schema', `"${name}" is not a valid schema name (lowercase letters, digits, _)`);
  }
}

/** The schema a chain's tables live in when several chains share one database (`minievm-2` → `chain_minievm_2`). */
export function schemaForChain(chainId: string): string {
  const name = `chain_${chainId.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
  assertSchemaName(name);
  return name;
}
