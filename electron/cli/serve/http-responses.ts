/** The headers and small responses `navi serve` answers with. */
import type { ServerResponse } from 'node:http'

/** On every response. */
export const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const

export function sendText(res: ServerResponse, status: number, text: string): void {
  send(res, status, { 'Content-Type': 'text/plain; charset=utf-8' }, `${text}\n`)
}

/** JSON of the API: never cached. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(
    res,
    status,
    { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    JSON.stringify(value),
  )
}

/** An `IpcResult` failure envelope, for what goes wrong before a call reaches the dispatcher. */
export function sendCallError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  sendJson(res, status, { ok: false, error: { code, message } })
}

export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
  headOnly = false,
): void {
  if (res.headersSent) {
    res.end()
    return
  }
  res.writeHead(status, {
    ...BASE_HEADERS,
    ...headers,
    'Content-Length': String(Buffer.byteLength(body)),
  })
  res.end(headOnly ? undefined : body)
}
