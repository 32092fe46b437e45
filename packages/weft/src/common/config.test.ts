import { describe, expect, it } from 'vitest';
import { loadSettings, parse } from './config.js';

describe('settings', () => {
  const spec = {
    dsn: { flag: 'db-dsn', env: 'DB_DSN', description: 'dsn', parse: parse.postgresDsn, default: '' },
    delay: { flag: 'delay', env: 'DELAY', description: 'delay', parse: parse.duration, default: 1000 },
  };

  it('takes flags over environment variables over defaults', () => {
    expect(loadSettings(spec, { argv: [], env: {} })).toEqual({ dsn: '', delay: 1000 });
    expect(loadSettings(spec, { argv: ['--delay', '2s'], env: { DELAY: '5s' } }).delay).toBe(2000);
    expect(loadSettings(spec, { argv: [], env: { DELAY: '250ms' } }).delay).toBe(250);
  });

  it('accepts a PostgreSQL URL or nothing, and names the setting otherwise', () => {
    expect(loadSettings(spec, { argv: [], env: { DB_DSN: 'postgres://u@127.0.0.1/db' } }).dsn).toBe(
      'postgres://u@127.0.0.1/db',
    );
    expect(loadSettings(spec, { argv: ['--db-dsn='], env: {} }).dsn).toBe('');
    expect(() => loadSettings(spec, { argv: [], env: { DB_DSN: 'mysql://x' } })).toThrow(
      'invalid configuration: DB_DSN: must be a postgres:// URL (leave it unset for the embedded store)',
    );
    expect(() => loadSettings(spec, { argv: ['--delay', 'soon'], env: {} })).toThrow(
      'invalid configuration: --delay: "soon" is not a duration',
    );
  });
});
