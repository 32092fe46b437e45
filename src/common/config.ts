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

export function usage(spec: SettingsSpec): string {
  return Object.values(spec)
    .map((s) => {
      const def = s.default === undefined ? '' : ` (default ${JSON.stringify(s.default)})`;
      return `  --${s.flag}${s.env ? ` / ${s.env}` : ''}\n      ${s.description}${def}`;
    })
    .join('\n');
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
