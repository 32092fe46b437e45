import pg from 'pg';
import { databaseBackends, processCpuMs } from './ingest-cpu.js';

/**
 * Where a scenario's CPU goes, per request: the API (this process, which serves it), the load generator
 * (autocannon's child process) and the PostgreSQL backends of the bench database. The machine is
 * saturated during a scenario, so these sums bound the rates: a route can reach at most a reference's
 * `total_us` over its own of that reference's rate.
 */
export interface CpuPerRequest {
  api_us: number;
  load_us: number;
  postgres_us: number;
  total_us: number;
}

export interface CpuMeter {
  /** Starts a scenario's reading. */
  start(): Promise<void>;
  /** Ends it: the CPU since `start`, per request. */
  stop(requests: number): Promise<CpuPerRequest>;
  close(): Promise<void>;
}

export async function cpuMeter(adminDsn: string, database: string, loadPid: number): Promise<CpuMeter> {
  const client = new pg.Client({ connectionString: adminDsn });
  await client.connect();
  const backends = async () =>
    new Map(
      (await databaseBackends(client, database))
        .filter((r) => r.backend_type === 'client backend')
        .map((r) => [r.pid, processCpuMs(r.pid) ?? 0]),
    );
  let at: { api: NodeJS.CpuUsage; load: number; postgres: Map<number, number> } | undefined;
  return {
    async start() {
      at = { api: process.cpuUsage(), load: processCpuMs(loadPid) ?? 0, postgres: await backends() };
    },
    async stop(requests) {
      if (!at) throw new Error('stop before start');
      const api = process.cpuUsage(at.api);
      const load = (processCpuMs(loadPid) ?? 0) - at.load;
      let postgres = 0;
      // A backend that started during the scenario counts whole; one that ended is lost (rare: the
      // pool keeps its connections while it is busy).
      for (const [pid, ms] of await backends()) postgres += ms - (at.postgres.get(pid) ?? 0);
      const us = (ms: number) => Math.round((ms * 1000) / Math.max(requests, 1));
      const apiMs = (api.user + api.system) / 1000;
      return {
        api_us: us(apiMs),
        load_us: us(load),
        postgres_us: us(postgres),
        total_us: us(apiMs + load + postgres),
      };
    },
    close: () => client.end(),
  };
}
