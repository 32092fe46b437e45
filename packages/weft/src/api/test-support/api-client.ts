import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * Requests to an API instance (in process) that check every answer: 200s against the route's
 * response schema as `/swagger/doc.json` publishes it and, where rollytics' OpenAPI document gives
 * one, against rollytics' schema too; error answers against the error shape.
 */

export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

export interface WalkResult {
  items: any[];
  total: string;
  pages: number;
}

export interface ApiClient {
  /** GET of a route template (`/indexer/tx/v1/txs/{tx_hash}`), expecting `status` (200 by default). */
  get(
    template: string,
    params?: Record<string, string | number>,
    query?: Query,
    status?: number,
  ): Promise<Answer>;
  /** GET of a raw URL; the answer is checked against the error shape when it is not a 2xx. */
  raw(
    url: string,
    init?: {
      method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'HEAD';
      headers?: Record<string, string>;
    },
  ): Promise<Answer>;
  /** Follows `next_key` from the first page to the last. */
  walk(
    template: string,
    params: Record<string, string | number>,
    query: Query,
    itemsKey: string,
  ): Promise<WalkResult>;
  /** Pages by `pagination.offset` until a page comes back short. */
  walkOffsets(
    template: string,
    params: Record<string, string | number>,
    query: Query,
    itemsKey: string,
  ): Promise<WalkResult>;
  /** Route templates the OpenAPI document lists. */
  paths(): string[];
}

const rollytics = JSON.parse(readFileSync(new URL('./rollytics-schemas.json', import.meta.url), 'utf8')) as {
  responses: Record<string, string>;
  definitions: Record<string, any>;
};

// rollytics' swagger types the keys as plain strings, but rollytics itself answers null for them.
const definitions = structuredClone(rollytics.definitions);
for (const key of ['next_key', 'previous_key']) {
  definitions['common.PaginationResponse'].properties[key] = { type: ['string', 'null'] };
}

export function urlOf(
  template: string,
  params: Record<string, string | number> = {},
  query: Query = {},
): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${template}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export function createApiClient(app: FastifyInstance): ApiClient {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const doc = app.swagger() as any;
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (template: string, status: number): ValidateFunction => {
    const key = `${template} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      const responses = doc.paths[template]?.get?.responses;
      if (!responses) throw new Error(`the OpenAPI document has no GET ${template}`);
      const schema = responses[String(status)]?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`the OpenAPI document has no ${status} schema for ${template}`);
      validate = ajv.compile(schema);
      validators.set(key, validate);
    }
    return validate;
  };
  const rollyticsValidators = new Map<string, ValidateFunction>();
  const rollyticsOf = (template: string): ValidateFunction | undefined => {
    const name = rollytics.responses[template];
    if (!name) return undefined;
    let validate = rollyticsValidators.get(name);
    if (!validate) {
      validate = ajv.compile({ $ref: `#/definitions/${name}`, definitions });
      rollyticsValidators.set(name, validate);
    }
    return validate;
  };

  const checkError = (answer: Answer) => {
    expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ code: expect.any(Number), message: expect.any(String), details: [] });
    expect(answer.body.message).not.toMatch(/\n\s+at /);
  };

  const send = async (url: string, init: Parameters<ApiClient['raw']>[1] = {}): Promise<Answer> => {
    const response = await app.inject({ method: init.method ?? 'GET', url, headers: init.headers });
    let body: unknown = response.body;
    if (
      String(response.headers['content-type'] ?? '').startsWith('application/json') &&
      response.body !== ''
    ) {
      body = JSON.parse(response.body);
    }
    return { status: response.statusCode, body, headers: response.headers };
  };

  const client: ApiClient = {
    async get(template, params = {}, query = {}, status = 200) {
      const url = urlOf(template, params, query);
      const answer = await send(url);
      if (answer.status !== status) {
        throw new Error(
          `GET ${url}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`,
        );
      }
      const validate = validatorOf(template, status);
      if (!validate(answer.body)) {
        throw new Error(`GET ${url}: answer does not match its schema: ${ajv.errorsText(validate.errors)}`);
      }
      if (status >= 400) checkError(answer);
      const compatible = status === 200 ? rollyticsOf(template) : undefined;
      if (compatible && !compatible(answer.body)) {
        throw new Error(
          `GET ${url}: answer does not match rollytics' schema: ${ajv.errorsText(compatible.errors)}`,
        );
      }
      return answer;
    },
    async raw(url, init) {
      const answer = await send(url, init);
      if (answer.status >= 400) checkError(answer);
      return answer;
    },
    async walk(template, params, query, itemsKey) {
      const limit = Number(query['pagination.limit'] ?? 100);
      const items: any[] = [];
      let key: string | undefined;
      let total = '';
      let pages = 0;
      for (;;) {
        const { body } = await client.get(template, params, { ...query, 'pagination.key': key });
        pages += 1;
        const rows = body[itemsKey] as any[];
        expect(rows.length).toBeLessThanOrEqual(limit);
        items.push(...rows);
        if (pages === 1) total = body.pagination.total;
        else expect(body.pagination.total).toBe(total);
        if (body.pagination.next_key === null) break;
        // A next key promises rows: a full page now, and at least one more after it.
        expect(rows.length).toBe(limit);
        key = body.pagination.next_key;
        if (pages > 10_000) throw new Error('walk does not end');
      }
      return { items, total, pages };
    },
    async walkOffsets(template, params, query, itemsKey) {
      const limit = Number(query['pagination.limit'] ?? 100);
      const items: any[] = [];
      let total = '';
      let pages = 0;
      for (let offset = 0; ; offset += limit) {
        const { body } = await client.get(template, params, {
          ...query,
          'pagination.offset': offset || undefined,
        });
        pages += 1;
        const rows = body[itemsKey] as any[];
        items.push(...rows);
        total = body.pagination.total;
        if (body.pagination.next_key === null) break;
        expect(rows.length).toBe(limit);
      }
      return { items, total, pages };
    },
    paths: () => Object.keys(doc.paths),
  };
  return client;
}
