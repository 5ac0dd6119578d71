import { describe, expect, it } from 'vitest'
import {
  bearerToken,
  checkRequest,
  parseCookies,
  tokenCookie,
  tokensEqual,
  type RequestAuthInput,
} from '../../electron/cli/serve/request-auth.ts'

const TOKEN = '0123456789abcdef0123456789abcdef'
const base: RequestAuthInput = {
  host: '127.0.0.1:4321',
  origin: undefined,
  authorization: undefined,
  queryToken: undefined,
  cookie: undefined,
  port: 4321,
  expected: TOKEN,
}

describe('checkRequest', () => {
  it.each<[string, Partial<RequestAuthInput>, ReturnType<typeof checkRequest>]>([
    ['a Bearer token', { authorization: `Bearer ${TOKEN}` }, { ok: true, via: 'bearer' }],
    ['a query token', { queryToken: TOKEN }, { ok: true, via: 'query' }],
    ['the cookie', { cookie: `other=1; navi_token_4321=${TOKEN}` }, { ok: true, via: 'cookie' }],
    [
      'localhost as host',
      { host: 'LOCALHOST:4321', queryToken: TOKEN },
      { ok: true, via: 'query' },
    ],
    [
      'our own origin',
      { origin: 'http://localhost:4321', queryToken: TOKEN },
      { ok: true, via: 'query' },
    ],
    [
      'two Host headers, even both ours',
      { hostHeaders: 2, queryToken: TOKEN },
      { ok: false, status: 400, reason: 'duplicate host header' },
    ],
    [
      'a wrong cookie beside a right query token',
      { cookie: 'navi_token_4321=old', queryToken: TOKEN },
      { ok: true, via: 'query' },
    ],
    ['no token', {}, { ok: false, status: 401, reason: 'missing token' }],
    [
      'a wrong token',
      { authorization: 'Bearer nope' },
      { ok: false, status: 401, reason: 'wrong token' },
    ],
    [
      'a token prefix',
      { queryToken: TOKEN.slice(0, 16) },
      { ok: false, status: 401, reason: 'wrong token' },
    ],
    [
      'the cookie of another port',
      { cookie: `navi_token_9999=${TOKEN}` },
      { ok: false, status: 401, reason: 'missing token' },
    ],
    [
      'a foreign host',
      { host: 'evil.example:4321', queryToken: TOKEN },
      { ok: false, status: 403, reason: 'forbidden host' },
    ],
    [
      'another port in Host',
      { host: '127.0.0.1:80', queryToken: TOKEN },
      { ok: false, status: 403, reason: 'forbidden host' },
    ],
    [
      'no Host',
      { host: undefined, queryToken: TOKEN },
      { ok: false, status: 403, reason: 'forbidden host' },
    ],
    [
      'a foreign origin',
      { origin: 'http://evil.example', queryToken: TOKEN },
      { ok: false, status: 403, reason: 'forbidden origin' },
    ],
    [
      'origin null',
      { origin: 'null', queryToken: TOKEN },
      { ok: false, status: 403, reason: 'forbidden origin' },
    ],
    [
      'https origin',
      { origin: 'https://127.0.0.1:4321', queryToken: TOKEN },
      { ok: false, status: 403, reason: 'forbidden origin' },
    ],
    [
      'a foreign host without token (403 wins)',
      { host: 'evil.example' },
      { ok: false, status: 403, reason: 'forbidden host' },
    ],
  ])('%s', (_, over, expected) => {
    expect(checkRequest({ ...base, ...over })).toEqual(expected)
  })
})

describe('token helpers', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer   abc ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer a b', undefined],
    [undefined, undefined],
  ])('bearerToken(%j) → %j', (header, expected) => {
    expect(bearerToken(header)).toBe(expected)
  })

  it('parses cookies, first of a name wins', () => {
    expect([...parseCookies('a=1; b = 2;c=x=y; a=3; junk')]).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['c', 'x=y'],
    ])
  })

  it.each([
    [TOKEN, TOKEN, true],
    [TOKEN.toUpperCase(), TOKEN, false],
    ['', TOKEN, false],
    ['', '', false],
  ])('tokensEqual(%j, %j) → %j', (given, expected, equal) => {
    expect(tokensEqual(given, expected)).toBe(equal)
  })

  it('makes an HttpOnly SameSite=Strict cookie per port', () => {
    expect(tokenCookie(4321, TOKEN)).toBe(
      `navi_token_4321=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`,
    )
  })
})
