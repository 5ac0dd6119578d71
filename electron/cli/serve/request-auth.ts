/**
 * Who may talk to `navi serve`: requests addressed to this server by name (`Host` is 127.0.0.1 or
 * localhost with our port, which defeats DNS rebinding), from our own pages when a browser says where
 * it comes from (`Origin`), carrying the token (Bearer header, `?token=` or our cookie). Pure.
 */
import { createHash, timingSafeEqual } from 'node:crypto'

export interface RequestAuthInput {
  /** The `Host` header. */
  host: string | undefined
  /** How many `Host` headers the request carried (Node keeps only the first): more than one is refused. */
  hostHeaders?: number
  /** The `Origin` header, when the client sent one. */
  origin: string | undefined
  /** The `Authorization` header. */
  authorization: string | undefined
  /** The `token` query parameter. */
  queryToken: string | undefined
  /** The `Cookie` header. */
  cookie: string | undefined
  /** The port the server listens on. */
  port: number
  /** The server's token. */
  expected: string
}

export type TokenSource = 'bearer' | 'query' | 'cookie'

export type AuthDecision =
  { ok: true; via: TokenSource } | { ok: false; status: 400 | 401 | 403; reason: string }

/** The cookie carrying the token: one per port, since cookies do not tell ports apart. */
export const tokenCookieName = (port: number): string => `navi_token_${port}`

/** The `Set-Cookie` value that keeps the token for this server's pages. */
export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`]
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`)
}

/**
 * Decides one request: 400 for more than one Host header, 403 for a foreign Host or Origin (checked
 * first), 401 without the right token.
 */
export function checkRequest(input: RequestAuthInput): AuthDecision {
  // Two Host headers can name two hosts to two parsers (a proxy and us): never guess which one counts.
  if ((input.hostHeaders ?? 1) > 1)
    return { ok: false, status: 400, reason: 'duplicate host header' }
  const host = input.host?.trim().toLowerCase()
  if (!host || !allowedHosts(input.port).includes(host)) {
    return { ok: false, status: 403, reason: 'forbidden host' }
  }
  if (input.origin !== undefined) {
    const origin = input.origin.trim().toLowerCase()
    if (!allowedOrigins(input.port).includes(origin)) {
      return { ok: false, status: 403, reason: 'forbidden origin' }
    }
  }
  const candidates: [TokenSource, string | undefined][] = [
    ['bearer', bearerToken(input.authorization)],
    ['query', input.queryToken],
    ['cookie', parseCookies(input.cookie).get(tokenCookieName(input.port))],
  ]
  for (const [via, token] of candidates) {
    if (token !== undefined && tokensEqual(token, input.expected)) return { ok: true, via }
  }
  const offered = candidates.some(([, token]) => token !== undefined)
  return { ok: false, status: 401, reason: offered ? 'wrong token' : 'missing token' }
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  return match?.[1]
}

/** `a=1; b=2` → Map; the first of repeated names wins; values are not decoded. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim()
    if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim())
  }
  return cookies
}

/** Constant-time comparison (of digests, so the length of the token is not revealed either). */
export function tokensEqual(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(digest(given), digest(expected)) && expected.length > 0
}
