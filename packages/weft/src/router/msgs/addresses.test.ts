import { describe, expect, it } from 'vitest';
import { toBech32 } from '../../chain/address.js';
import { AddressError } from '../errors.js';
import type { RouterChain } from '../registry/types.js';
import { chainAddress } from './addresses.js';

const chain = (over: Partial<RouterChain>): RouterChain => ({
  chainId: 'c-1',
  chainName: 'c',
  prettyName: 'C',
  kind: 'cosmos',
  bech32Prefix: 'init',
  isL1: false,
  isTestnet: true,
  opDenoms: [],
  ibcChannels: [],
  nftChannels: [],
  feeAssets: [],
  keyAlgos: [],
  ...over,
});

const bytes = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const hex = `0x${Buffer.from(bytes).toString('hex')}`;

describe('chainAddress', () => {
  it("takes bech32 with the chain's prefix, and gives its hex form", () => {
    const address = chainAddress(chain({}), toBech32('init', bytes));
    expect(address.bech32).toBe(toBech32('init', bytes));
    expect(address.hex?.toLowerCase()).toBe(hex);
  });

  it('refuses another prefix, a broken checksum, hex on non-EVM Cosmos chains and empty input', () => {
    expect(() => chainAddress(chain({}), toBech32('cosmos', bytes))).toThrow(
      /prefix cosmos, the chain uses init/,
    );
    const good = toBech32('init', bytes);
    expect(() => chainAddress(chain({}), `${good.slice(0, -1)}${good.endsWith('q') ? 'p' : 'q'}`)).toThrow(
      AddressError,
    );
    expect(() => chainAddress(chain({}), hex)).toThrow(AddressError);
    expect(() => chainAddress(chain({}), '')).toThrow(/missing address/);
    expect(() => chainAddress(chain({}), 7)).toThrow(AddressError);
  });

  it('takes 0x hex on EVM rollups (the same account) and only 0x hex on EVM chains', () => {
    const rollup = chainAddress(chain({ minitia: 'minievm' }), hex);
    expect(rollup.bech32).toBe(toBech32('init', bytes));
    const evm = chain({ kind: 'evm' });
    expect(chainAddress(evm, hex).hex?.toLowerCase()).toBe(hex);
    expect(() => chainAddress(evm, toBech32('init', bytes))).toThrow(/expected 0x and 40 hex digits/);
    expect(() => chainAddress(evm, `${hex}00`)).toThrow(AddressError);
  });
});
