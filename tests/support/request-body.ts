/**
 * Reading and inspecting the JSON request bodies the scripted model APIs receive
 * (`loopback-sse-server.ts`, `scripted-api.ts`, `scripted-responses-api.ts`). Nothing here throws on
 * bad input: an undecodable or non-JSON body reads as `undefined`.
 */
import type { IncomingMessage } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/** Narrows a value to a plain JSON object. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The `model` string of a request body, if any. */
export const requestModel = (body: unknown): string | undefined =>
  isRecord(body) && typeof body.model === 'string' ? body.model : undefined

/** True when a request body offers a non-empty `tools` array. */
export const offersTools = (body: unknown): boolean => {
  const tools = isRecord(body) ? body.tools : undefined
  return Array.isArray(tools) && tools.length > 0
}

const decoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  deflate: inflateSync,
}

function decodeBody(raw: Buffer, encoding: string | undefined): unknown {
  if (raw.length === 0) return undefined
  try {
    const decode =
      encoding !== undefined && Object.hasOwn(decoders, encoding) ? decoders[encoding] : undefined
    return JSON.parse((decode ? decode(raw) : raw).toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/**
 * The request body decoded (`content-encoding` gzip, br or deflate) and parsed as JSON; `undefined`
 * when there is no body or it is not JSON.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return decodeBody(await readBody(req), req.headers['content-encoding'])
}
