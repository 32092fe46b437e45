import { ConfigError } from './errors.js';

/** One setting: read from a CLI flag first, then an environment variable, then its default. */
export interface Setting<T> {
  flag: string;
  env?: string;
  description: string;
  parse: (raw: string, name: string) => T;
  default?: T;
  /** Boolean flags may be given bare (`--halt`). */
  boolean?: boolean;
  /** The default as help shows it, where the value alone would not say it (`true on evm`). */
  defaultText?: string;
}

export type SettingsSpec = Record<string, Setting<unknown>>;
export type SettingsOf<S extends SettingsSpec> = {
  [K in keyof S]: S[K] extends Setting<infer T> ? T : never;
};

export interface ConfigSource {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}

/** Splits `--a 1 --b=2 --c` into a map; a bare flag before another flag is `true`. */
export function parseFlags(argv: readonly string[], booleanFlags: ReadonlySet<string>): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--'))
      throw new ConfigError(arg, 'unexpected argument (flags look like --name value)');
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (eq !== -1) {
      flags.set(name, arg.slice(eq + 1));
    } else if (booleanFlags.has(name) && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--'))) {
      flags.set(name, 'true');
    } else {
      const value = argv[i + 1];
      if (value === undefined) throw new ConfigError(`--${name}`, 'missing value');
      flags.set(name, value);
      i += 1;
    }
  }
  return flags;
}

export function loadSettings<S extends SettingsSpec>(spec: S, source: ConfigSource): SettingsOf<S> {
  const booleans = new Set(
    Object.values(spec)
      .filter((s) => s.boolean)
      .map((s) => s.flag),
  );
  const flags = parseFlags(source.argv, booleans);
  const known = new Set(Object.values(spec).map((s) => s.flag));
  for (const name of flags.keys()) {
    if (!known.has(name)) throw new ConfigError(`--${name}`, 'unknown flag');
  }
  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(spec)) {
    const fromFlag = flags.get(setting.flag);
    const fromEnv = setting.env ? source.env[setting.env] : undefined;
    const name = fromFlag !== undefined ? `--${setting.flag}` : (setting.env ?? `--${setting.flag}`);
    const raw = fromFlag ?? (fromEnv === '' ? undefined : fromEnv);
    if (raw === undefined) {
      if (setting.default === undefined) throw new ConfigError(name, 'required');
      out[key] = setting.default;
    } else {
      out[key] = setting.parse(raw, name);
    }
  }
  return out as SettingsOf<S>;
}

/** A setting's default as help shows it; `required` when it has none. */
export function defaultText(setting: Setting<unknown>): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  const value = setting.default;
  if (value === undefined) return 'required';
  if (value === '' || (Array.isArray(value) && value.length === 0)) return 'empty';
  if (Array.isArray(value)) return value.join(',');
  if (setting.parse === parse.duration && typeof value === 'number') return durationText(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}

/** `1500` → `1500ms`, `2000` → `2s`, `60000` → `1m`: as a duration setting is written. */
function durationText(ms: number): string {
  if (ms !== 0 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms !== 0 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** Splits `text` into lines of at most `width` characters (a longer word keeps a line of its own). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Every setting of `spec`, two lines or more each, fitting `width` columns:
 * `  --flag  ENV  default` (the columns aligned), then the description, indented.
 */
export function usage(spec: SettingsSpec, width = 80): string {
  const settings = Object.values(spec);
  const flagWidth = Math.min(28, Math.max(4, ...settings.map((s) => s.flag.length + 2)));
  const envWidth = Math.min(30, Math.max(11, ...settings.map((s) => s.env?.length ?? 0)));
  const row = (flag: string, env: string, def: string) =>
    `  ${flag.padEnd(flagWidth)}  ${env.padEnd(envWidth)}  ${def}`.trimEnd();
  const out = [row('FLAG', 'ENVIRONMENT', 'DEFAULT')];
  for (const s of settings) {
    const def = defaultText(s);
    const full = row(`--${s.flag}`, s.env ?? '-', def);
    const fits = full.length <= width;
    out.push(fits ? full : row(`--${s.flag}`, s.env ?? '-', ''));
    for (const line of wrap(s.description, width - 6)) out.push(`      ${line}`);
    if (!fits) for (const line of wrap(`default: ${def}`, width - 6)) out.push(`      ${line}`);
  }
  return out.join('\n');
}

// Parsers. Each names the setting in its error.

export const parse = {
  string: (raw: string) => raw,
  int:
    (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
    (raw: string, name: string) => {
      if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(name, `"${raw}" is not an integer`);
      const value = Number(raw);
      if (value < min || value > max) throw new ConfigError(name, `${value} is outside ${min}..${max}`);
      return value;
    },
  number:
    (min = -Infinity, max = Infinity) =>
    (raw: string, name: string) => {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value))
        throw new ConfigError(name, `"${raw}" is not a number`);
      if (value < min || value > max) throw new ConfigError(name, `${value} is outside ${min}..${max}`);
      return value;
    },
  bool: (raw: string, name: string) => {
    const v = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
    throw new ConfigError(name, `"${raw}" is not a boolean (true or false)`);
  },
  oneOf:
    <T extends string>(values: readonly T[]) =>
    (raw: string, name: string): T => {
      if (!values.includes(raw as T))
        throw new ConfigError(name, `"${raw}" is not one of ${values.join(', ')}`);
      return raw as T;
    },
  listOf:
    <T>(item: (raw: string, name: string) => T) =>
    (raw: string, name: string): T[] =>
      raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
        .map((s) => item(s, name)),
  url: (raw: string, name: string) => {
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      throw new ConfigError(name, `"${raw}" is not an http(s) URL`);
    }
  },
  /** A PostgreSQL URL; empty means unset (the embedded store). */
  postgresDsn: (raw: string, name: string) => {
    if (raw !== '' && !/^postgres(ql)?:\/\//.test(raw)) {
      throw new ConfigError(name, 'must be a postgres:// URL (leave it unset for the embedded store)');
    }
    return raw;
  },
  /** `500ms`, `2s`, `1m`, or a bare number of milliseconds. */
  duration: (raw: string, name: string) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim());
    if (!m) throw new ConfigError(name, `"${raw}" is not a duration (e.g. 500ms, 2s, 1m)`);
    const unit = m[2] ?? 'ms';
    return Number(m[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  },
};

/** Where an HTTP service listens (`weft api`, `weft router`). */
export const hostSetting = {
  flag: 'host',
  env: 'HOST',
  description: 'address to listen on',
  parse: parse.string,
  default: '127.0.0.1',
};

export const logSettings = {
  logLevel: {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    description: 'log level',
    parse: parse.oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const),
    default: 'info' as const,
  },
  logFormat: {
    flag: 'log-format',
    env: 'LOG_FORMAT',
    description: 'json (one record a line) or pretty',
    parse: parse.oneOf(['json', 'pretty'] as const),
    default: 'pretty' as const,
  },
} satisfies SettingsSpec;

/** Prometheus endpoint settings; each process part has its own default port so they can run side by side. */
export function metricsSettings(defaultPort: number) {
  return {
    metricsEnabled: {
      flag: 'metrics-enabled',
      env: 'METRICS_ENABLED',
      description: 'serve Prometheus metrics',
      parse: parse.bool,
      boolean: true,
      default: false,
    },
    metricsHost: {
      flag: 'metrics-host',
      env: 'METRICS_HOST',
      description: 'address the metrics endpoint listens on',
      parse: parse.string,
      default: '127.0.0.1',
    },
    metricsPort: {
      flag: 'metrics-port',
      env: 'METRICS_PORT',
      description: 'port of the metrics endpoint',
      parse: parse.int(0, 65_535),
      default: defaultPort,
    },
    metricsPath: {
      flag: 'metrics-path',
      env: 'METRICS_PATH',
      description: 'path of the metrics endpoint',
      parse: (raw: string, name: string) => {
        if (!raw.startsWith('/')) throw new ConfigError(name, 'must start with /');
        return raw;
      },
      default: '/metrics',
    },
  } satisfies SettingsSpec;
}
