import { type Logger, pino } from 'pino';
import { aboveLiveLine } from './progress.js';

export type { Logger };

export type LogFormat = 'json' | 'pretty';
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** Name of the part that logs (`devnet`, `indexer`, ...). */
  name?: string;
}

/**
 * `json`: pino's JSON lines on stdout. `pretty` (the `LOG_FORMAT` default, `logSettings` in config.ts):
 * one readable line per record on stderr, without a transport worker (pino-pretty is not needed for that).
 */
export function createLogger(options: LoggerOptions): Logger {
  const base = { name: options.name };
  if (options.format === 'json') {
    // On a terminal, records go above a progress line on it.
    if (!process.stdout.isTTY) return pino({ level: options.level, base });
    return pino(
      { level: options.level, base },
      { write: (line: string) => aboveLiveLine(process.stdout, line) },
    );
  }
  return pino(
    { level: options.level, base, timestamp: false },
    {
      write(line: string) {
        const { level, msg, name, ...rest } = JSON.parse(line) as Record<string, unknown>;
        const fields = Object.entries(rest)
          .filter(([key]) => key !== 'pid' && key !== 'hostname')
          .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
          .join(' ');
        const label = pino.levels.labels[level as number] ?? 'info';
        aboveLiveLine(
          process.stderr,
          `${label.padEnd(5)} ${name ? `[${name}] ` : ''}${msg ?? ''}${fields ? ` ${fields}` : ''}\n`,
        );
      },
    },
  );
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
