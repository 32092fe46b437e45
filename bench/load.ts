import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** One request of a load: a GET path, or a method, path and JSON body. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface LoadJob {
  base: string;
  /** GET paths, round robin (or `requests`). */
  paths?: string[];
  requests?: LoadRequest[];
  /** Sent with every request (e.g. `accept-encoding`). */
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /**
   * Threads of the load generator, the connections split among them (one GET path only). One thread
   * cannot read answers of a few hundred kilobytes from 64 connections: on a 2-core machine a bare
   * Node server sending 234 KB from a Buffer was read at 1,961 a second (p99 73 ms) by one thread of
   * 64 connections and at 4,377 (p99 39 ms) by two of 32.
   */
  workers?: number;
}

export interface LoadResult {
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  mb_per_s: number;
  non_2xx: number;
  errors: number;
}

/** autocannon's options for a job on threads: one GET path, nothing a thread would have to require. */
function threadedOptions(job: LoadJob, requests: LoadRequest[]) {
  const [only] = requests;
  if (requests.length !== 1 || only!.method !== 'GET') {
    throw new Error(`a load on ${job.workers} threads takes one GET path, not ${requests.length} requests`);
  }
  return {
    url: job.base + only!.path,
    headers: { ...job.headers },
    connections: job.connections,
    duration: job.seconds,
    workers: job.workers,
  };
}

/** autocannon's options for a job on one thread: the requests round robin across all connections. */
function roundRobinOptions(job: LoadJob, requests: LoadRequest[]) {
  let next = 0;
  // Built once: a request only points at them.
  const headers = { ...job.headers };
  const jsonHeaders = { ...job.headers, 'content-type': 'application/json' };
  return {
    url: job.base,
    connections: job.connections,
    duration: job.seconds,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => {
          const r = requests[next++ % requests.length]!;
          request.method = r.method;
          request.path = r.path;
          request.headers = headers;
          if (r.body !== undefined) {
            request.body = r.body;
            request.headers = jsonHeaders;
          }
          return request;
        },
      },
    ],
  };
}

/** The child process: autocannon over the job's requests. */
function loadWorker(): void {
  const autocannon = createRequire(import.meta.url)('autocannon');
  process.on('message', (job: LoadJob) => {
    const requests: LoadRequest[] =
      job.requests ?? (job.paths ?? []).map((path) => ({ method: 'GET', path }));
    let options: object;
    try {
      options = (job.workers ?? 1) > 1 ? threadedOptions(job, requests) : roundRobinOptions(job, requests);
    } catch (err) {
      process.send!({ error: String(err) });
      return;
    }
    autocannon(options, (err: unknown, result: any) => {
      if (err) {
        process.send!({ error: String(err) });
        return;
      }
      process.send!({
        requests_per_s: Math.round(result.requests.average),
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
        mean_ms: result.latency.mean,
        mb_per_s: Number((result.throughput.average / 1e6).toFixed(2)),
        non_2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      } satisfies LoadResult);
    });
  });
}

/** A child process that runs loads (so autocannon does not share the server's event loop). */
export function startLoadWorker(): ChildProcess {
  return fork(fileURLToPath(import.meta.url), ['--load-worker'], {
    execArgv: ['--conditions=weft-source', '--import', 'tsx'],
  });
}

export function runLoad(child: ChildProcess, job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    child.once('message', (message: LoadResult | { error: string }) => {
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    child.send(job);
  });
}

if (process.argv.includes('--load-worker')) loadWorker();
