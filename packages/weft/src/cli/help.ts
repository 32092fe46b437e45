import { type SettingsSpec, usage, wrap } from '../common/config.js';

/** What help shows of a command: its line, its settings and notes on what else it reads. */
export interface CommandInfo {
  describe: string;
  /** The settings the command reads (loaded lazily: some modules are heavy). */
  settings?: () => Promise<SettingsSpec>;
  /** Lines after the settings (environment variables read outside the settings). */
  notes?: string[];
}

/** Columns of help text: the terminal's, between 60 and 100; 80 when not a terminal. */
export function helpWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  if (!stream.isTTY || !stream.columns) return 80;
  return Math.max(60, Math.min(100, stream.columns));
}

const SOURCES = 'Each setting is read from its flag, else its environment variable, else its default.';

/** `weft <name> --help`: every setting with its environment variable, default and description. */
export function commandHelp(name: string, info: CommandInfo, spec: SettingsSpec, width = 80): string {
  const lines = [
    ...wrap(`weft ${name}: ${info.describe}`, width),
    '',
    `usage: weft ${name} [--flag value | --flag=value ...]`,
    ...wrap(SOURCES, width),
    '',
    'settings:',
    usage(spec, width),
  ];
  if (info.notes?.length) lines.push('', ...info.notes.flatMap((n) => wrap(n, width)));
  return `${lines.join('\n')}\n`;
}

/** `weft --help`: the commands, then each command's settings as `--flag (ENV)`. */
export function overview(
  commands: Record<string, CommandInfo>,
  specs: Record<string, SettingsSpec | undefined>,
  width = 80,
): string {
  const nameWidth = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = [
    'usage: weft <command> [--flag value ...]',
    '       weft <command> --help   its settings: flag, environment variable, default, description',
    '',
    'commands:',
  ];
  for (const [name, c] of Object.entries(commands)) {
    const [first, ...rest] = wrap(c.describe, width - nameWidth - 4);
    lines.push(`  ${name.padEnd(nameWidth)}  ${first}`);
    for (const line of rest) lines.push(`  ${''.padEnd(nameWidth)}  ${line}`);
  }
  lines.push('', ...wrap(`settings of each command (flag and environment variable). ${SOURCES}`, width));
  for (const [name, spec] of Object.entries(specs)) {
    if (!spec) continue;
    const items = Object.values(spec).map((s) => `--${s.flag}${s.env ? ` (${s.env})` : ''}`);
    lines.push('', `weft ${name}:`, ...pack(items, width - 2).map((l) => `  ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

/** `items` on lines of at most `width` characters, two spaces apart; an item is never split. */
function pack(items: string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && line.length + 2 + item.length > width) {
      lines.push(line);
      line = item;
    } else line = line ? `${line}  ${item}` : item;
  }
  if (line) lines.push(line);
  return lines;
}
