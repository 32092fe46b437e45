import { pino } from 'pino';
import type { Logger } from '../../common/logger.js';

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A logger whose records a test can read. */
export function captureRecords(level: 'debug' | 'info' = 'debug'): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = pino(
    { level, base: undefined, timestamp: false },
    { write: (line: string) => records.push(JSON.parse(line)) },
  );
  return { logger, records };
}
