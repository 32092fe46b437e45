import { describe, expect, it } from 'vitest';
import { loadRouterConfig } from './config.js';

const load = (env: Record<string, string>) => loadRouterConfig({ argv: ['--registry', 'r'], env });

describe('the op-hook funder settings', () => {
  it('are off by default, with a cap of 30 accounts a minute', () => {
    const config = load({});
    expect([config.opHookFunderKey, config.opHookFunderRate]).toEqual(['', 30]);
  });

  it('take a secp256k1 private key as 0x hex (lowercased) and a cap', () => {
    const key = `0x${'AB'.repeat(32)}`;
    const config = load({ ROUTER_OP_HOOK_FUNDER_KEY: key, ROUTER_OP_HOOK_FUNDER_RATE: '5' });
    expect([config.opHookFunderKey, config.opHookFunderRate]).toEqual([key.toLowerCase(), 5]);
  });

  it('refuse a key that is not one without repeating it', () => {
    for (const bad of [
      `0x${'ab'.repeat(31)}`,
      'ab'.repeat(32),
      `0x${'0'.repeat(64)}`,
      `0x${'f'.repeat(64)}`,
    ]) {
      let message = '';
      try {
        load({ ROUTER_OP_HOOK_FUNDER_KEY: bad });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(
        'invalid configuration: ROUTER_OP_HOOK_FUNDER_KEY: is not a secp256k1 private key (0x and 64 hex digits; the value is not shown)',
      );
    }
    expect(() => load({ ROUTER_OP_HOOK_FUNDER_RATE: '0' })).toThrow(
      /ROUTER_OP_HOOK_FUNDER_RATE: 0 is outside/,
    );
  });
});
