import { createHash } from 'node:crypto';
import { ConfigError } from '../common/errors.js';

/** PostgreSQL's identifier limit (NAMEDATALEN - 1), in bytes; schema names here are ASCII. */
const MAX_NAME_BYTES = 63;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are kept to plain lowercase identifiers so they never need quoting anywhere. */
export function assertSchemaName(name: string): void {
  if (!SCHEMA_NAME.test(name)) {
    throw new ConfigError('schema', `"${name}" is not a valid schema name (lowercase letters, digits, _)`);
  }
}

const PREFIX = 'chain_';
/** Ids of this form map one to one by `-` → `_`, and their names never hold `__`. */
const PLAIN_CHAIN_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** 64 bits of SHA-256: a collision between two chain ids is not a practical concern. */
const HASH_CHARS = 16;

/**
 * The schema a chain's tables live in when several chains share one database, also a safe folder
 * name. A plain id keeps a readable name (`minievm-2` → `chain_minievm_2`); any other id (capitals,
 * `_`, `.`, a long one) gets a readable part and `__` + a hash of the exact id, so different ids
 * (`a-b`, `a_b`, `A-b`) get different names, all within PostgreSQL's 63-byte limit.
 */
export function schemaForChain(chainId: string): string {
  const plain = `${PREFIX}${chainId.replaceAll('-', '_')}`;
  if (PLAIN_CHAIN_ID.test(chainId) && plain.length <= MAX_NAME_BYTES) return plain;
  const hash = createHash('sha256').update(chainId).digest('hex').slice(0, HASH_CHARS);
  const readable = chainId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_NAME_BYTES - PREFIX.length - 2 - HASH_CHARS)
    .replace(/_+$/, '');
  const name = `${PREFIX}${readable}__${hash}`;
  assertSchemaName(name);
  return name;
}
