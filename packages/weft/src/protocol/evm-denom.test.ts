import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ibcDenomOf, parseIbcPath } from '../router/graph/denoms.js';
import { erc20ContractOf, erc20Denom, isErc20Denom } from './evm-denom.js';
import { localDenom } from './ics20.js';

/** The real initia-registry's asset lists (mainnets), as recorded under test/fixtures. */
const MAINNETS = new URL('../../../../test/fixtures/registry/mainnets/', import.meta.url).pathname;
const assets = readdirSync(MAINNETS).flatMap((chain) => {
  const file = join(MAINNETS, chain, 'assetlist.json');
  try {
    return (JSON.parse(readFileSync(file, 'utf8')).assets as any[]).map((a) => ({ chain, ...a }));
  } catch {
    return [];
  }
});

describe('minievm evm/ denoms', () => {
  it('names every listed ERC20 of the real registry as its base (ContractAddrToDenom)', () => {
    const erc20s = assets.filter((a) => typeof a.base === 'string' && isErc20Denom(a.base) && a.address);
    expect(erc20s.length).toBeGreaterThan(3);
    for (const asset of erc20s) {
      expect(erc20Denom(asset.address)).toBe(asset.base);
      expect(erc20Denom(asset.address.toLowerCase())).toBe(asset.base);
      expect(erc20ContractOf(asset.base)).toBe(asset.address);
    }
    // yominet's ONYX, one of them.
    expect(erc20Denom('0x4badfb501ab304ff11217c44702bb9e9732e7cf4')).toBe(
      'evm/4BaDFb501Ab304fF11217C44702bb9E9732E7CF4',
    );
  });

  it('reads the contract of an evm/ denom in any case, with or without 0x (DenomToContractAddr)', () => {
    const contract = '0x4BaDFb501Ab304fF11217C44702bb9E9732E7CF4';
    expect(erc20ContractOf('evm/4badfb501ab304ff11217c44702bb9e9732e7cf4')).toBe(contract);
    expect(erc20ContractOf('evm/0x4BADFB501AB304FF11217C44702BB9E9732E7CF4')).toBe(contract);
    expect(erc20ContractOf('evm/4badfb')).toBeUndefined();
    expect(erc20ContractOf('evm/zz4badfb501ab304ff11217c44702bb9e9732e7c')).toBeUndefined();
    expect(erc20ContractOf('uinit')).toBeUndefined();
    expect(() => erc20Denom('0x1234')).toThrow('not a hex address');
  });

  it("hashes the L1 voucher of a rollup's evm/ token as the real registry lists it", () => {
    // initia's ONYX: the voucher of yominet's evm/44CF… over channel-25.
    const voucher = assets.find(
      (a) =>
        a.chain === 'initia' &&
        a.base === 'ibc/74CDBCE5F520CD29B32692645382E168032121F7DC3B3FDC79B0D37FB4E0916D',
    )!;
    const trace = voucher.traces.find((t: any) => t.type === 'ibc');
    expect(trace.chain.path).toBe(`transfer/${trace.chain.channel_id}/${trace.counterparty.base_denom}`);
    expect(erc20Denom(erc20ContractOf(trace.counterparty.base_denom)!)).toBe(trace.counterparty.base_denom);
    expect(localDenom(trace.chain.path)).toBe(voucher.base);
    expect(ibcDenomOf(parseIbcPath(trace.chain.path))).toBe(voucher.base);
  });
});
