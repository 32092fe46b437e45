import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { erc20Listing } from './erc20-listing.js';

/** initia's assetlist in the real registry (recorded under test/fixtures). */
const INITIA = new URL('../../../../test/fixtures/registry/mainnets/initia/assetlist.json', import.meta.url)
  .pathname;

describe('registry entries of a rollup ERC20 and its L1 voucher', () => {
  it("writes the voucher's base and ibc trace as the real registry does (yominet's ONYX on initia)", () => {
    const real = (JSON.parse(readFileSync(INITIA, 'utf8')).assets as any[]).find(
      (a) => a.base === 'ibc/74CDBCE5F520CD29B32692645382E168032121F7DC3B3FDC79B0D37FB4E0916D',
    );
    const realTrace = real.traces.find((t: any) => t.type === 'ibc');
    const [onRollup, onL1] = erc20Listing(
      // The contract in lower case: the entries spell it checksummed, as minievm names its denom.
      { contract: '0x44cfaab1cf49996540a6b6a87d1f0a604267e6b0', name: 'ONYX', symbol: 'ONYX', decimals: 18 },
      { chainId: 'yominet-1', chainName: 'yominet', channelId: 'channel-0' },
      { chainId: 'interwoven-1', chainName: 'initia', channelId: 'channel-25' },
    );
    expect(onRollup!.chainId).toBe('yominet-1');
    expect(onRollup!.assets![0]).toMatchObject({
      base: 'evm/44CFAaB1cF49996540A6B6A87d1f0a604267E6b0',
      address: '0x44CFAaB1cF49996540A6B6A87d1f0a604267E6b0',
      type_asset: 'erc20',
      display: 'ONYX',
      denom_units: [
        { denom: 'evm/44CFAaB1cF49996540A6B6A87d1f0a604267E6b0', exponent: 0 },
        { denom: 'ONYX', exponent: 18 },
      ],
    });
    expect(onL1!.chainId).toBe('interwoven-1');
    const voucher = onL1!.assets![0]!;
    expect(voucher.base).toBe(real.base);
    expect(voucher.traces).toEqual([realTrace]);
  });
});
