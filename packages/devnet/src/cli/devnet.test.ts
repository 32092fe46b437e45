import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceCli } from 'weft/cli/test-support/source-cli.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'weft-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `weft devnet` as a user would, through the CLI entry point. */
async function weft(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, sourceCli(['devnet', ...args]), {
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('weft devnet (CLI)', () => {
  it('stops at start with one line naming an invalid setting', async () => {
    for (const [args, env, line] of [
      [
        ['--block-time', 'soon'],
        {},
        'weft: invalid configuration: --block-time: "soon" is not a duration (e.g. 500ms, 2s, 1m)',
      ],
      [
        [],
        { DEVNET_VMS: 'evm,cosmos' },
        'weft: invalid configuration: DEVNET_VMS: "cosmos" is not one of evm, move, wasm',
      ],
      [
        ['--txs-per-block', '5000'],
        {},
        'weft: invalid configuration: --txs-per-block: 5000 is outside 0..1000',
      ],
      [['--colour', 'blue'], {}, 'weft: invalid configuration: --colour: unknown flag'],
      [
        [],
        { DEVNET_NETWORK: 'mainnet' },
        'weft: invalid configuration: DEVNET_NETWORK: "mainnet" is not one of rollups, full',
      ],
    ] as const) {
      const result = await weft([...args], env);
      expect(result.code).toBe(1);
      const [error, hint] = result.stderr.trim().split('\n').slice(-2);
      expect(error).toBe(line);
      expect(hint).toBe('  hint: `weft devnet --help` lists the settings of weft devnet');
    }
  });

  it('reads a config file, fast-forwards, reports figures and writes the manifest', async () => {
    const config = join(dir, 'devnet.json');
    const manifest = join(dir, 'manifest.json');
    writeFileSync(config, JSON.stringify({ vms: ['move'], txsPerBlock: 4, seed: 'cli', portBase: 0 }));
    const result = await weft(['--config', config, '--fast-forward', '3', '--exit', '--manifest', manifest]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout.split('\n').find((l) => l.startsWith('{"fast_forward"'))!);
    expect(report.fast_forward).toMatchObject({ blocks: 3, txs: 12 });
    expect(report.fast_forward.blocksPerSecond).toBeGreaterThan(0);
    const written = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(written.seed).toBe('cli');
    expect(written.chains).toHaveLength(1);
    expect(written.chains[0]).toMatchObject({ chain_id: 'weft-move-1', vm: 'move', json_rpc: null });
    expect(written.chains[0].rpc).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(written.chains[0].accounts[0]).toHaveProperty('mnemonic');
    expect(written).toMatchObject({ network: 'rollups', registry: join(dir, 'registry'), services: {} });
    expect(written.chains[0]).toMatchObject({ role: 'rollup', chain_name: 'weftmove' });
    expect(written.control).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.stdout).toContain(`control=${written.control} registry=${join(dir, 'registry')}`);
    const entry = JSON.parse(readFileSync(join(dir, 'registry', 'weftmove', 'chain.json'), 'utf8'));
    expect(entry).toMatchObject({
      chain_id: 'weft-move-1',
      apis: { rpc: [{ address: written.chains[0].rpc }] },
    });
  });

  it('starts the full network with its bridges and writes them to the manifest and the registry', async () => {
    const manifest = join(dir, 'full', 'manifest.json');
    const result = await weft([
      '--network',
      'full',
      '--vms',
      'evm,move',
      '--port-base',
      '0',
      '--txs-per-block',
      '3',
      '--op-output-interval',
      '2s',
      '--fast-forward',
      '3',
      '--exit',
      '--manifest',
      manifest,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const written = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(written.chains.map((c: { role: string }) => c.role)).toEqual([
      'rollup',
      'rollup',
      'l1',
      'external-cosmos',
      'external-evm',
    ]);
    expect(written.services.opinit).toMatchObject({
      output_interval_ms: 2000,
      finalization_period_ms: 10_000,
    });
    expect(written.services.opinit.bridges).toEqual([
      expect.objectContaining({ chain_id: 'weft-evm-1', bridge_id: '1' }),
      expect.objectContaining({ chain_id: 'weft-move-1', bridge_id: '2' }),
    ]);
    expect(written.services.omnichain.members).toHaveLength(3);
    const entry = JSON.parse(readFileSync(join(dir, 'full', 'registry', 'weftmove', 'chain.json'), 'utf8'));
    expect(entry.metadata).toMatchObject({
      op_bridge_id: '2',
      op_denoms: ['uinit'],
      executor_uri: written.services.opinit.bridges[1].executor_uri,
    });
  });

  it('describes the network settings in --help', async () => {
    const result = await weft(['--help']);
    expect(result.code).toBe(0);
    for (const text of [
      '--network',
      'DEVNET_NETWORK',
      'rollups',
      'full',
      '--registry',
      'control surface',
      '--op-output-interval',
      '--op-finalization-period',
    ]) {
      // Descriptions wrap at the terminal's width.
      expect(result.stdout.replace(/\s+/g, ' ')).toContain(text);
    }
  });
});
