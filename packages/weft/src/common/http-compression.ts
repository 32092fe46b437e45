import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers of the indexer API and the router are compressed for the clients that ask (`Accept-Encoding`:
 * browsers, and Node's and most HTTP libraries' fetch): an indexer page of 100 txs is about 230 KB of
 * JSON and about 22 KB gzipped. Fastify's own plugin (`@fastify/compress`) compresses each answer of
 * 1 KB or more as it is sent; the API's response cache keeps the compressed forms of its entries
 * (`encodeBody`), so a hot page is compressed once per refresh, not once per request. Both choose the
 * encoding the same way (`acceptedEncoding`).
 */

/** In the server's order of preference, among those the client accepts with the same weight. */
const ENCODINGS = ['gzip', 'br', 'deflate', 'identity'] as const;
export type Encoding = Exclude<(typeof ENCODINGS)[number], 'identity'>;
/** Smaller answers are sent as they are. */
export const COMPRESS_THRESHOLD = 1024;
/**
 * gzip at level 3: a 230 KB page in about 0.5 ms, 7 % larger than at zlib's default level (6), which
 * takes twice as long. Brotli at quality 4, the plugin's default.
 */
const ZLIB_OPTIONS = { level: 3 };
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: [...ENCODINGS],
    threshold: COMPRESS_THRESHOLD,
    zlibOptions: ZLIB_OPTIONS,
    brotliOptions: BROTLI_OPTIONS,
  });
}

/** `*` and `x-gzip` stand for gzip, as the plugin reads them. */
const GZIP_ALIAS = /\*|x-gzip/gu;

/** The encoding the plugin would compress this request's answer with, if any. */
export function acceptedEncoding(request: FastifyRequest): Encoding | undefined {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return undefined;
  const chosen = negotiate(header.toLowerCase().replace(GZIP_ALIAS, 'gzip'), [...ENCODINGS]);
  return chosen === null || chosen === 'identity' ? undefined : chosen;
}

export function encodeBody(body: string | Buffer, encoding: Encoding): Buffer {
  if (encoding === 'br') return brotliCompressSync(body, BROTLI_OPTIONS);
  return encoding === 'gzip' ? gzipSync(body, ZLIB_OPTIONS) : deflateSync(body, ZLIB_OPTIONS);
}

/** Adds `accept-encoding` to the answer's `Vary`, as the plugin does for the answers it compresses. */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const values = vary === undefined ? [] : Array.isArray(vary) ? vary : [String(vary)];
  if (!values.some((v) => v.toLowerCase().includes('accept-encoding')))
    void reply.header('vary', [...values, 'accept-encoding'].join(', '));
}
