/**
 * `navi serve` refuses everything that is not its own page or client: no token, a wrong token, a foreign
 * Host (DNS rebinding) or Origin (another site), paths outside the renderer; and it listens on
 * 127.0.0.1 only. The real server over a real engine on a temp NAVI_HOME.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createNaviServer,
  IDLE_SOCKET_MS,
  MAX_CONNECTIONS,
  type NaviServer,
} from '../../electron/cli/serve/server.ts'
import { createEngine, type Engine } from '../../electron/engine/index.ts'
import { createContractHandlers } from '../../electron/runtime/contract-handlers.ts'
import { createPushHub, type PushHub } from '../../electron/runtime/push-hub.ts'
import { createSettingsFileStore } from '../../electron/runtime/settings-store.ts'
import { httpRequest, openEventStream, type RawRequest } from '../support/navi-http.ts'
import { useTempPaths } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'

const temp = useTempPaths('navi-serve-sec-')
const SECRET = 'top secret package.json'
const INDEX = '<!doctype html><title>Navi</title><script src="/assets/app.js"></script>'

let engine: Engine
let hub: PushHub
let server: NaviServer
let rendererDir: string

async function start(renderer: string): Promise<NaviServer> {
  const settings = await createSettingsFileStore(temp.paths)
  const handlers = createContractHandlers({
    engine,
    pm: null,
    settings,
    paths: temp.paths,
    checkTools: async () => [],
    getPmRunning: () => null,
  })
  return createNaviServer({ handlers, hub, rendererDir: renderer, port: 0 })
}

beforeEach(async () => {
  // The renderer sits beside a file that must never be served.
  rendererDir = join(temp.root, 'pkg', 'out', 'renderer')
  await mkdir(join(rendererDir, 'assets'), { recursive: true })
  await writeFile(join(rendererDir, 'index.html'), INDEX)
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("navi")\n')
  await writeFile(join(temp.root, 'pkg', 'package.json'), SECRET)
  await writeFile(join(temp.root, 'pkg', 'out', 'package.json'), SECRET)
  engine = createEngine({ paths: temp.paths, watch: false })
  await engine.refresh()
  hub = createPushHub({ engine, pm: null })
  server = await start(rendererDir)
})

afterEach(async () => {
  await server.close()
  hub.stop()
  await engine.stop()
})

const bearer = () => ({ Authorization: `Bearer ${server.token}` })
const routes: [string, RawRequest][] = [
  ['a call', { path: '/api/call/state:get', method: 'POST' }],
  ['a static file', { path: '/assets/app.js' }],
  ['the page', { path: '/' }],
]

describe('navi serve security', () => {
  it.each(routes)('%s: 401 without a token or with a wrong one, 200 with it', async (_, req) => {
    const port = server.port
    expect((await httpRequest(port, req)).status).toBe(401)
    const wrong = await httpRequest(port, { ...req, headers: { Authorization: 'Bearer 00ff' } })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toBe('wrong token\n')
    expect((await httpRequest(port, { ...req, path: `${req.path}?token=nope` })).status).toBe(401)
    expect((await httpRequest(port, { ...req, headers: bearer() })).status).toBe(200)
  })

  it.each(routes)('%s: 403 for a foreign Host or Origin, even with the token', async (_, req) => {
    const port = server.port
    const foreign: Record<string, string>[] = [
      { Host: `evil.example:${port}` },
      { Host: `127.0.0.1:${port + 1}` },
      { Origin: 'http://evil.example' },
      { Origin: `http://127.0.0.1:${port + 1}` },
      { Origin: 'null' },
    ]
    for (const headers of foreign) {
      const res = await httpRequest(port, { ...req, headers: { ...bearer(), ...headers } })
      expect(res.status, JSON.stringify(headers)).toBe(403)
      expect(res.body).toMatch(/^forbidden (host|origin)\n$/)
    }
    const own = { ...bearer(), Host: `localhost:${port}`, Origin: `http://localhost:${port}` }
    expect((await httpRequest(port, { ...req, headers: own })).status).toBe(200)
  })

  it('the event stream: 401 / 403 / 200 like every route', async () => {
    const port = server.port
    const cases: [Record<string, string>, number][] = [
      [{}, 401],
      [{ Authorization: 'Bearer wrong' }, 401],
      [{ ...bearer(), Host: `evil.example:${port}` }, 403],
      [{ ...bearer(), Origin: 'http://evil.example' }, 403],
      [bearer(), 200],
    ]
    for (const [headers, status] of cases) {
      const stream = await openEventStream(port, headers)
      try {
        expect(stream.status, JSON.stringify(headers)).toBe(status)
        if (status === 200) {
          expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8')
          await stream.waitFor((e) => e.event === 'briefing:changed', 5_000, 'the first events')
          expect(stream.raw()).toMatch(/^retry: 2000\n\n/)
        }
      } finally {
        stream.close()
      }
    }
  })

  it('/?token= sets the cookie and redirects to /; the cookie then opens everything', async () => {
    const port = server.port
    const login = await httpRequest(port, { path: `/?token=${server.token}` })
    expect(login.status).toBe(302)
    expect(login.headers.location).toBe('/')
    const [cookie] = login.headers['set-cookie'] ?? []
    expect(cookie).toBe(`navi_token_${port}=${server.token}; Path=/; HttpOnly; SameSite=Strict`)
    const jar = { Cookie: (cookie ?? '').split(';')[0] ?? '' }

    const page = await httpRequest(port, { path: '/', headers: jar })
    expect(page.status).toBe(200)
    expect(page.body).toBe(INDEX)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    )
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['referrer-policy']).toBe('no-referrer')

    const script = await httpRequest(port, { path: '/assets/app.js', headers: jar })
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    const call = await httpRequest(port, {
      path: '/api/call/state:get',
      method: 'POST',
      headers: { ...jar, Origin: `http://127.0.0.1:${port}` },
    })
    expect(call.status).toBe(200)
    expect(call.headers['cache-control']).toBe('no-store')
    expect(JSON.parse(call.body)).toMatchObject({ ok: true, data: { projects: [] } })
    const stream = await openEventStream(port, jar)
    stream.close()
    expect(stream.status).toBe(200)

    const wrongLogin = await httpRequest(port, { path: '/?token=nope' })
    expect(wrongLogin.status).toBe(401)
    expect(wrongLogin.headers['set-cookie']).toBeUndefined()
  })

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/%2E%2E/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/..%5c..%5cpackage.json',
  ])('refuses %s', async (path) => {
    const res = await httpRequest(server.port, { path, headers: bearer() })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.body).not.toContain(SECRET)
  })

  it('listens on 127.0.0.1 only', async () => {
    const reachable = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port: server.port })
        socket.once('connect', () => {
          socket.destroy()
          resolve(true)
        })
        socket.once('error', () => resolve(false))
      })
    expect(await reachable('127.0.0.1')).toBe(true)
    expect(await reachable('::1')).toBe(false)
    // On Linux all of 127/8 is this machine: a server bound to 127.0.0.1 alone refuses 127.0.0.2.
    if (process.platform === 'linux') expect(await reachable('127.0.0.2')).toBe(false)
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`)
    expect(server.token).toMatch(/^[0-9a-f]{32}$/)
  })

  it('refuses bodies that are too large, not JSON, or the wrong method, with an envelope', async () => {
    const post = (body: string) =>
      httpRequest(server.port, {
        path: '/api/call/settings:set',
        method: 'POST',
        headers: bearer(),
        body,
      })
    const large = await post(JSON.stringify({ model: 'x'.repeat(70 * 1024) }))
    expect(large.status).toBe(413)
    expect(JSON.parse(large.body)).toMatchObject({ ok: false, error: { code: 'too_large' } })
    const bad = await post('{"model": ')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'bad_json' } })
    const get = await httpRequest(server.port, { path: '/api/call/state:get', headers: bearer() })
    expect(get.status).toBe(405)
    const unknown = await httpRequest(server.port, {
      path: '/api/call/nope:nope',
      method: 'POST',
      headers: bearer(),
    })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    })
  })

  it('answers 503 for the page when the renderer is not built, 404 for a missing file', async () => {
    const unbuilt = await start(join(temp.root, 'nothing-here'))
    try {
      const page = await httpRequest(unbuilt.port, {
        path: '/',
        headers: { Authorization: `Bearer ${unbuilt.token}` },
      })
      expect(page.status).toBe(503)
      expect(page.body).toContain('run `npm run build` first')
    } finally {
      await unbuilt.close()
    }
    const missing = await httpRequest(server.port, { path: '/assets/nope.js', headers: bearer() })
    expect(missing.status).toBe(404)
  })

  it('close() ends the open event streams', async () => {
    const stream = await openEventStream(server.port, bearer())
    await stream.waitFor((e) => e.event === 'state:changed', 5_000, 'the first state')
    await server.close()
    await expect.poll(() => stream.ended(), { timeout: 5_000 }).toBe(true)
  })

  it('refuses a request with two Host headers', async () => {
    const reply = await rawExchange(
      server.port,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nHost: evil.example\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`,
    )
    expect(reply.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 400 /)
  })

  it(
    'closes sockets that never send a request, and refuses connections past the cap at once',
    { timeout: 90_000 },
    async () => {
      const idle = await Promise.all(Array.from({ length: 20 }, () => openSocket(server.port)))
      // Each closes IDLE_SOCKET_MS after the server took it in; the bound leaves room for a busy machine.
      await waitUntil(
        () => idle.every((s) => s.closed()),
        IDLE_SOCKET_MS * 4,
        () => `the idle sockets to be closed (${idle.filter((s) => s.closed()).length} of 20 are)`,
        250,
      )

      const fill = await Promise.all(
        Array.from({ length: MAX_CONNECTIONS }, () => openSocket(server.port)),
      )
      const extra = await openSocket(server.port)
      await expect.poll(() => extra.closed(), { timeout: 5_000 }).toBe(true)
      for (const socket of fill) socket.destroy()
      // Once the server has seen them go, the page is served again.
      await expect
        .poll(
          () =>
            httpRequest(server.port, { path: '/assets/app.js', headers: bearer() }).then(
              (page) => page.status,
              () => 0,
            ),
          { timeout: 10_000 },
        )
        .toBe(200)
    },
  )
})

/** A raw TCP socket to the server that sends nothing; `closed()` once the server hangs up. */
function openSocket(port: number): Promise<{ closed(): boolean; destroy(): void }> {
  return new Promise((resolve, reject) => {
    let closed = false
    const socket = connect({ host: '127.0.0.1', port })
    // Flowing, so the server's hang-up is read: a paused socket that nobody reads can miss the end of
    // its stream, and then never emits 'end' or 'close' however long the test waits.
    socket.resume()
    socket.on('end', () => (closed = true))
    socket.on('close', () => (closed = true))
    socket.on('error', () => (closed = true))
    socket.once('connect', () => resolve({ closed: () => closed, destroy: () => socket.destroy() }))
    socket.once('error', reject)
  })
}

/** Sends `request` as bytes and resolves with everything the server answers before it closes. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let reply = ''
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(request))
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')))
    socket.on('data', (chunk) => (reply += chunk.toString('utf8')))
    socket.on('end', () => resolve(reply))
    socket.on('error', reject)
  })
}
