import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devSettings } from 'weft-devnet/dev/settings.js';
import { devnetSettings } from 'weft-devnet/settings.js';
import { apiSettings } from '../api/config.js';
import type { SettingsSpec } from '../common/config.js';
import { dashboardSettings } from '../dashboard/settings.js';
import { indexerSettings } from '../indexer/config.js';
import { recordSettings, replaySettings } from '../record/settings.js';
import { routerSettings } from '../router/config.js';

/** Every command's settings; README.md lists each under the heading ``### `weft <command>` ``. */
const COMMANDS: Record<string, SettingsSpec> = {
  dev: devSettings,
  devnet: devnetSettings,
  indexer: indexerSettings,
  api: apiSettings,
  router: routerSettings,
  dashboard: dashboardSettings,
  record: recordSettings,
  replay: replaySettings,
};

const README = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');

/** The table rows of a command's settings section (up to the next heading), each as its cells. */
function settingsRows(markdown: string, command: string): string[][] {
  const rows: string[][] = [];
  let inSection = false;
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (inFence) continue;
    if (line.startsWith('#')) inSection = line === `### \`weft ${command}\``;
    else if (inSection && line.startsWith('|')) {
      // Cells split on pipes that are not escaped (`hit\|miss`).
      rows.push(
        line
          .split(/(?<!\\)\|/)
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    }
  }
  return rows;
}

const flagOf = (cell: string | undefined) => /^`--([a-z0-9-]+)`$/.exec(cell ?? '')?.[1];

describe('settingsRows', () => {
  it('reads one section, skipping code blocks and escaped pipes', () => {
    const markdown = [
      '### `weft api`',
      '| flag | env |',
      '| `--a` | `A` |',
      '```sh',
      '# a comment, not a heading',
      '```',
      '| `--b` | `x\\|y` |',
      '### `weft apis`',
      '| `--c` | `C` |',
    ].join('\n');
    expect(settingsRows(markdown, 'api').map((cells) => cells[0])).toEqual(['flag', '`--a`', '`--b`']);
    expect(settingsRows(markdown, 'api')[2]).toEqual(['`--b`', '`x\\|y`']);
    expect(settingsRows(markdown, 'ap')).toEqual([]);
  });
});

describe.each(Object.entries(COMMANDS))('README.md, settings of weft %s', (command, spec) => {
  const rows = settingsRows(README, command);

  it.each(Object.values(spec).map((s) => [s.flag, s.env ?? '']))('lists --%s with env "%s"', (flag, env) => {
    const row = rows.find((cells) => flagOf(cells[0]) === flag);
    expect(row, `README.md: no row for --${flag} under ### \`weft ${command}\``).toBeDefined();
    expect(row![1], `README.md: the env of --${flag} (weft ${command})`).toBe(env ? `\`${env}\`` : '');
  });

  it('lists no flag the command does not have', () => {
    const known = new Set([...Object.values(spec).map((s) => s.flag)]);
    const documented = rows.map((cells) => flagOf(cells[0])).filter((flag) => flag !== undefined);
    expect(documented.filter((flag) => !known.has(flag))).toEqual([]);
  });
});
