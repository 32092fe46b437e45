import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { devSettings } from 'weft-devnet/dev/settings.js';
import { devnetSettings } from 'weft-devnet/settings.js';
import { apiSettings } from '../api/config.js';
import { defaultText, type SettingsSpec } from '../common/config.js';
import { indexerSettings } from '../indexer/config.js';
import { recordSettings, replaySettings } from '../record/settings.js';
import { routerSettings } from '../router/config.js';
import { sourceCli } from './test-support/source-cli.js';

const run = promisify(execFile);

/** `weft <args>` as a user runs it, through the CLI entry point; its stdout. */
async function weft(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, sourceCli(args), { timeout: 60_000 });
  return stdout;
}

/** The settings each command reads. */
const commands: Record<string, SettingsSpec> = {
  devnet: devnetSettings,
  indexer: indexerSettings,
  api: apiSettings,
  router: routerSettings,
  dev: devSettings,
  record: recordSettings,
  replay: replaySettings,
};

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('weft help', () => {
  it.each(Object.keys(commands))(
    'weft %s --help lists every setting: flag, environment, default, description',
    async (name) => {
      const help = await weft([name, '--help']);
      const lines = help.split('\n');
      for (const setting of Object.values(commands[name]!)) {
        const flag = `--${setting.flag}`;
        const at = lines.findIndex((l) => new RegExp(`^  ${literal(flag)}( |$)`).test(l));
        expect(at, `${name}: ${flag} is missing from the help`).toBeGreaterThan(0);
        const row = lines[at]!;
        expect(row, `${name}: ${flag}'s environment`).toMatch(
          new RegExp(`^  ${literal(flag)} +${literal(setting.env ?? '-')}( |$)`),
        );
        // The default closes the row, or follows the description when the row would be too wide.
        const def = defaultText(setting);
        const entry = lines.slice(at, at + 8).join('\n');
        expect(
          row.endsWith(` ${def}`) || entry.includes(`default: ${def}`),
          `${name}: ${flag}'s default`,
        ).toBe(true);
        expect(entry.replace(/\n +/g, ' '), `${name}: ${flag}'s description`).toContain(setting.description);
      }
      // Readable on an 80-column terminal.
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    },
  );

  it('says what an empty default means, and which settings are required', () => {
    for (const [name, spec] of Object.entries(commands)) {
      for (const setting of Object.values(spec)) {
        const def = defaultText(setting);
        if (def === 'empty') expect(setting.description, `${name}: --${setting.flag}`).toMatch(/empty|unset/);
        if (setting.default === undefined) expect(def).toBe('required');
      }
    }
    expect(defaultText(indexerSettings.chainId)).toBe('required');
    expect(defaultText(devnetSettings.blockTime)).toBe('1s');
    expect(defaultText(apiSettings.corsAllowOrigins)).toBe('*');
  });

  it('weft --help lists the commands, then every setting of each', async () => {
    for (const args of [['--help'], [], ['-h']]) {
      const help = await weft(args);
      for (const [name, spec] of Object.entries(commands)) {
        expect(help).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
        const section = help.slice(help.indexOf(`\nweft ${name}:\n`));
        expect(section.length, `the settings of weft ${name}`).toBeGreaterThan(1);
        const block = section.split('\n\n')[0]!;
        for (const setting of Object.values(spec)) {
          const item = `--${setting.flag}${setting.env ? ` (${setting.env})` : ''}`;
          expect(block, `weft ${name}: ${item}`).toMatch(new RegExp(`(^|  )${literal(item)}(  |$)`, 'm'));
        }
      }
      for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    }
  });
});
