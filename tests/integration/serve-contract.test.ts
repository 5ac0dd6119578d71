/**
 * The contract over HTTP with the real engine watching a real git repository: state, paged events,
 * settings written to disk, and an SSE stream that delivers a commit as it happens. Last, `navi serve`
 * itself as a subprocess: its one-line announcement and a clean stop.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventsPage } from '../../shared/ipc-contract.ts'
import type { EngineState } from '../../shared/schemas/state.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { createNaviServer, type NaviServer } from '../../electron/cli/serve/server.ts'
import { createEngine, type Engine } from '../../electron/engine/index.ts'
import { createContractHandlers } from '../../electron/runtime/contract-handlers.ts'
import { createPushHub, type PushHub } from '../../electron/runtime/push-hub.ts'
import { createSettingsFileStore } from '../../electron/runtime/settings-store.ts'
import { createNaviEnv } from '../support/navi-cli.ts'
import { callApi, httpRequest, openEventStream } from '../support/navi-http.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { useTempPaths } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'
import { detailOf } from '../support/pm-events-fixture.ts'

const temp = useTempPaths('navi-serve-contract-')
let repo: RepoFixture
let engine: Engine
let hub: PushHub
let server: NaviServer

beforeEach(async () => {
  repo = await createRepoFixture({ prefix: 'served-' })
  await mkdir(temp.paths.naviHome, { recursive: true })
  await writeFile(
    join(temp.paths.naviHome, 'config.yaml'),
    `projects:\n  - path: ${repo.dir}\n    name: apollo\n`,
  )
  engine = createEngine({ paths: temp.paths })
  await engine.start()
  hub = createPushHub({ engine, pm: null })
  const handlers = createContractHandlers({
    engine,
    pm: null,
    settings: await createSettingsFileStore(temp.paths),
    paths: temp.paths,
    checkTools: async () => [],
    getPmRunning: () => null,
  })
  const rendererDir = join(temp.root, 'renderer')
  server = await createNaviServer({ handlers, hub, rendererDir, port: 0 })
})

afterEach(async () => {
  await server.close()
  hub.stop()
  await engine.stop()
  await repo.cleanup()
})

const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const { status, json } = await callApi(server.port, server.token, channel, input)
  expect(status, JSON.stringify(json)).toBe(200)
  expect(json, JSON.stringify(json)).toMatchObject({ ok: true })
  return (json as { data: T }).data
}

async function commitsLogged(count: number): Promise<EngineEvent[]> {
  return waitUntil(
    async () => {
      const page = await call<EventsPage>('events:list', { limit: 1000 })
      const commits = page.events.filter((e) => e.type === 'commit')
      return commits.length >= count ? commits : undefined
    },
    15_000,
    `${count} commit events`,
  )
}

describe('the contract over HTTP', () => {
  it('state:get gives the registered project as the engine sees it', async () => {
    const state = await call<EngineState>('state:get')
    expect(state.projects.map((p) => p.name)).toEqual(['apollo'])
    expect(state.projects[0]?.git?.branch).toBe('main')
  })

  it('events:list pages newest first with before/limit/project', async () => {
    for (const n of [1, 2, 3]) {
      await repo.commit(`change ${n}`, { [`f${n}.txt`]: `${n}\n` })
      await commitsLogged(n)
    }
    const all = await call<EventsPage>('events:list', { limit: 1000, project: 'apollo' })
    const times = all.events.map((e) => Date.parse(e.timestamp))
    expect(times).toEqual([...times].sort((a, b) => b - a))

    const seen: string[] = []
    let before: string | undefined
    for (let page = 0; page < all.events.length + 1; page++) {
      const next = await call<EventsPage>('events:list', {
        limit: 1,
        project: 'apollo',
        ...(before ? { before } : {}),
      })
      seen.push(...next.events.map((e) => e.id))
      if (!next.has_more) break
      before = next.events.at(-1)?.timestamp
    }
    expect(seen).toEqual(all.events.map((e) => e.id))
    expect(await call<EventsPage>('events:list', { limit: 5, project: 'zeus' })).toEqual({
      events: [],
      has_more: false,
    })
  })

  it('settings:set writes settings.json; a bad patch is bad_input and changes nothing', async () => {
    const file = join(temp.paths.naviHome, 'settings.json')
    await call('settings:set', { notifications: { commits: false } })
    const next = await call<Record<string, unknown>>('settings:set', { poll_interval: '10s' })
    expect(next).toMatchObject({ poll_interval: '10s', notifications: { commits: false } })
    const onDisk: unknown = JSON.parse(await readFile(file, 'utf8'))
    expect(onDisk).toEqual(next)
    expect(await call('settings:get')).toEqual(next)

    const bad = await callApi(server.port, server.token, 'settings:set', { poll_interval: 'soon' })
    expect(bad.json).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(onDisk)
  })

  it('the event stream starts with the state and delivers a real commit as events:appended', async () => {
    const stream = await openEventStream(server.port, {
      Authorization: `Bearer ${server.token}`,
    })
    try {
      const first = await stream.waitFor((e) => e.event === 'state:changed', 5_000, 'the state')
      expect((first.data as EngineState).projects.map((p) => p.name)).toEqual(['apollo'])
      expect(stream.events[1]?.event).toBe('briefing:changed')

      const sha = await repo.commit('feat: streamed "live" <b>as data</b>', { 'x.txt': 'x\n' })
      const appended = await stream.waitFor(
        (e) =>
          e.event === 'events:appended' &&
          (e.data as EngineEvent[]).some((ev) => ev.type === 'commit' && ev.details.sha === sha),
        15_000,
        `events:appended with commit ${sha}`,
      )
      const commit = (appended.data as EngineEvent[]).find((ev) => detailOf(ev, 'sha') === sha)
      expect(commit).toMatchObject({
        project: 'apollo',
        details: { message: 'feat: streamed "live" <b>as data</b>' },
      })
    } finally {
      stream.close()
    }
  })
})

describe('navi serve (the command)', () => {
  it('prints {url, port, token} as one JSON line, serves, and exits 0 on SIGTERM', async () => {
    const env = await createNaviEnv({ NAVI_RENDERER_DIR: join(temp.root, 'no-renderer') })
    const bin = join(import.meta.dirname, '../../bin/navi.cjs')
    const child = execa('node', [bin, 'serve', '--port', '0', '--json', '--no-pm'], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      buffer: false,
    })
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    try {
      const line = await waitUntil(
        () => stdout.includes('\n') && stdout,
        30_000,
        'the announcement',
      )
      const announced = JSON.parse(line.trim()) as { url: string; port: number; token: string }
      expect(announced).toEqual({
        url: `http://127.0.0.1:${announced.port}/?token=${announced.token}`,
        port: expect.any(Number),
        token: expect.stringMatching(/^[0-9a-f]{32}$/),
      })
      const page = await httpRequest(announced.port, {
        path: '/',
        headers: { Authorization: `Bearer ${announced.token}` },
      })
      expect(page.status).toBe(503)
      const briefing = await callApi(announced.port, announced.token, 'briefing:get')
      expect(briefing.json).toMatchObject({
        ok: true,
        data: { state: { error: 'PM is off (navi serve --no-pm)' }, running: null },
      })
    } finally {
      child.kill('SIGTERM')
      const result = await child
      expect(result.exitCode).toBe(0)
      for (const dir of [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME]) {
        await rm(dir, { recursive: true, force: true })
      }
    }
  })

  it('refuses a bad --port', async () => {
    const env = await createNaviEnv()
    const bin = join(import.meta.dirname, '../../bin/navi.cjs')
    const result = await execa('node', [bin, 'serve', '--port', 'http'], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    })
    expect(result.exitCode).toBe(2)
    expect(String(result.stderr)).toMatch(/--port expects a port number/)
  })
})
