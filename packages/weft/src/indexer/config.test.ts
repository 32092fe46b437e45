import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/errors.js';
import { loadIndexerConfig } from './config.js';

const env = {
  CHAIN_ID: 'minievm-1',
  VM_TYPE: 'evm',
  RPC_URL: 'http://127.0.0.1:26657, http://127.0.0.1:36657',
  REST_URL: 'http://127.0.0.1:1317',
  JSON_RPC_URL: 'http://127.0.0.1:8545',
};

const load = (extra: Record<string, string | undefined> = {}, argv: string[] = []) =>
  loadIndexerConfig({ argv, env: { ...env, ...extra } });

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('indexer config', () => {
  it('reads rollytics’ names, with the defaults rollytics users expect', () => {
    const config = load();
    expect(config.rpcUrls).toEqual(['http://127.0.0.1:26657', 'http://127.0.0.1:36657']);
    expect(config).toMatchObject({
      chainId: 'minievm-1',
      vm: 'evm',
      bech32Prefix: 'init',
      dataDir: '.weft/pglite',
      internalTx: true,
      richList: true,
      maxConcurrentRequests: 50,
      pollIntervalMs: 500,
      batchSize: 100,
      metrics: { enabled: false, host: '127.0.0.1', port: 9464, path: '/metrics' },
    });
    expect(config.dbDsn).toBeUndefined();
  });

  it('lets flags win over the environment', () => {
    const config = load({ POLL_INTERVAL: '2s' }, [
      '--poll-interval',
      '250ms',
      '--internal-tx=false',
      '--start-height',
      '77',
    ]);
    expect(config.pollIntervalMs).toBe(250);
    expect(config.internalTx).toBe(false);
    expect(config.startHeight).toBe(77);
  });

  it('turns the EVM extensions off by default on the other VMs', () => {
    const config = load({ VM_TYPE: 'move', JSON_RPC_URL: undefined });
    expect(config.internalTx).toBe(false);
    expect(config.richList).toBe(false);
  });

  it('names the setting in one line when it is invalid', () => {
    expect(failure(() => load({ JSON_RPC_URL: undefined })).message).toBe(
      'invalid configuration: JSON_RPC_URL: required when VM_TYPE is evm',
    );
    expect(failure(() => load({ VM_TYPE: 'cosmos' })).message).toMatch(
      /^invalid configuration: VM_TYPE: "cosmos"/,
    );
    expect(failure(() => load({ RPC_URL: 'localhost:26657' })).message).toMatch(
      /RPC_URL: "localhost:26657" is not/,
    );
    expect(failure(() => load({ DB_DSN: 'mysql://x' })).message).toMatch(
      /^invalid configuration: DB_DSN: must be/,
    );
    expect(failure(() => load({ MAX_CONCURRENT_REQUESTS: '0' })).message).toMatch(
      /MAX_CONCURRENT_REQUESTS: 0 is outside/,
    );
    expect(failure(() => load({ RICH_LIST: 'true', VM_TYPE: 'wasm' })).message).toMatch(
      /RICH_LIST: only available when VM_TYPE is evm/,
    );
    expect(failure(() => load({}, ['--no-such-flag', '1'])).setting).toBe('--no-such-flag');
    for (const err of [failure(() => load({ CHAIN_ID: undefined }))]) {
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).not.toContain('\n');
    }
  });
});
