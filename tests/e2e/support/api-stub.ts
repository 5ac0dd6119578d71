/**
 * For the pure layout cases only (empty, overflow, 500 events, dark mode, keys): the built renderer served
 * from out/renderer under `http://navi.test/` with no server, and a `window.api` stub injected before the
 * page's scripts. The stub answers each call from fixture data, records every call, and lets the test fire
 * pushes. Everything else runs against the real `navi serve` (navi-serve.ts).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { extname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Suggestion } from '../../../shared/schemas/suggestion.ts'
import type { Page } from '@playwright/test'
import type {
  BriefingView,
  IpcChannel,
  PushChannel,
  PushPayload,
  ToolStatus,
} from '../../../shared/ipc-contract.ts'
import type { EngineState } from '../../../shared/schemas/state.ts'
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import type { Settings } from '../../../shared/schemas/settings.ts'

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const RENDERER_DIR = resolve(REPO_ROOT, 'out/renderer')
export const LAYOUT_SCREENSHOT_DIR = resolve(REPO_ROOT, 'test-results/screenshots')
export const STUB_ORIGIN = 'http://navi.test'

/** What the stub answers: one value per query channel. */
export interface StubData {
  state: EngineState
  events: EngineEvent[]
  briefing: BriefingView
  settings: Settings
  tools: ToolStatus[]
  /** `suggestions:list`; none when absent. */
  suggestions?: Suggestion[]
}

export interface RecordedCall {
  channel: IpcChannel
  input: unknown
}

/** The page-side shape of the stub (the init script runs in the browser; no DOM types here). */
interface StubGlobal {
  api: unknown
  __naviCalls: RecordedCall[]
  __naviPush: (channel: string, payload: unknown) => void
}

/** Serves out/renderer under STUB_ORIGIN and installs the stub; then `page.goto(STUB_ORIGIN + '/')`. */
export async function openStubbedPopover(page: Page, data: StubData): Promise<void> {
  await serveBuiltRenderer(page)
  await page.addInitScript(installStub, data)
  await page.goto(`${STUB_ORIGIN}/`)
}

/** Answers `STUB_ORIGIN/<file>` from out/renderer (the built popover), with no server. */
export async function serveBuiltRenderer(page: Page): Promise<void> {
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('out/renderer is missing: run `npx electron-vite build` first')
  }
  await page.route(`${STUB_ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname
    if (path.startsWith('/api/')) return route.fallback()
    const file = resolve(RENDERER_DIR, `.${path === '/' ? '/index.html' : path}`)
    if (!file.startsWith(RENDERER_DIR) || !existsSync(file)) return route.fulfill({ status: 404 })
    await route.fulfill({ body: readFileSync(file), contentType: CONTENT_TYPES[extname(file)] })
  })
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

/** Runs in the page before its scripts: a `window.api` built from the fixture data. */
function installStub(data: StubData): void {
  const g = globalThis as unknown as StubGlobal
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const answers: Record<string, (input: unknown) => unknown> = {
    'state:get': () => data.state,
    'events:list': (input) => {
      const { limit = 200, before } = input as { limit?: number; before?: string }
      const older = before ? data.events.filter((e) => e.timestamp < before) : data.events
      return { events: older.slice(0, limit), has_more: older.length > limit }
    },
    // A copy each time, as over the wire: a store keeping the same object would not see a change.
    'briefing:get': () => structuredClone(data.briefing),
    'settings:get': () => data.settings,
    'tools:get': () => data.tools,
    'suggestions:list': () => data.suggestions ?? [],
    'answering:get': () => ({ listening: true, away: null, sessions: {}, wait_seconds: 300 }),
    'answering:set': (input) => {
      const { on, session_id: id } = input as { on: boolean; session_id?: string }
      return {
        listening: true,
        away: id === undefined && on ? 300 : null,
        sessions: id !== undefined && on ? { [id]: 300 } : {},
        wait_seconds: 300,
      }
    },
    'briefing:refresh': () => ({ done: true, message: 'started' }),
    'attention:dismiss': (input) => {
      // As the runtime does: the briefing is shown without the item from then on.
      const { project, title } = input as { project: string; title: string }
      const briefing = data.briefing.state.briefing
      if (briefing) {
        briefing.output.attention_items = briefing.output.attention_items.filter(
          (item) => item.project !== project || item.title !== title,
        )
      }
      return { done: true, message: 'dismissed' }
    },
    'pm:ask': (input) => ({
      answer: {
        answer: `About "${(input as { question: string }).question}": apollo has one commit today.\u202e`,
        actions: [{ kind: 'open_project', project: 'apollo', label: 'Open apollo' }],
      },
      error: null,
    }),
    'settings:set': (input) => {
      // As the settings store does: null removes an override.
      const next: Record<string, unknown> = { ...data.settings, ...(input as object) }
      for (const key of Object.keys(next)) if (next[key] === null) delete next[key]
      data.settings = next as unknown as Settings
      return data.settings
    },
    'hooks:install': () => ({ done: true, message: 'Hooks installed in ~/.claude/settings.json' }),
    'session:focus': () => ({ done: true, message: 'focused' }),
    'popover:hide': () => ({ done: false, message: 'nothing to hide' }),
  }
  g.__naviCalls = []
  g.__naviPush = (channel, payload) => {
    for (const listener of listeners.get(channel) ?? []) listener(payload)
  }
  g.api = {
    invoke: async (channel: string, input: unknown) => {
      g.__naviCalls.push({ channel: channel as IpcChannel, input })
      const answer = answers[channel]
      return answer
        ? { ok: true, data: answer(input) }
        : { ok: false, error: { code: 'unknown_channel', message: channel } }
    },
    on: (channel: string, listener: (payload: unknown) => void) => {
      const set = listeners.get(channel) ?? new Set()
      listeners.set(channel, set)
      set.add(listener)
      return () => set.delete(listener)
    },
  }
}

/** Fires a push as the shell or the server would. */
export async function push<C extends PushChannel>(
  page: Page,
  channel: C,
  payload: PushPayload<C>,
): Promise<void> {
  await page.evaluate(([c, p]) => (globalThis as unknown as StubGlobal).__naviPush(c, p), [
    channel,
    payload,
  ] as const)
}

/** Every call the renderer made so far, oldest first. */
export async function recordedCalls(page: Page): Promise<RecordedCall[]> {
  return page.evaluate(() => (globalThis as unknown as StubGlobal).__naviCalls)
}

/** Saves `test-results/screenshots/layout-<name>.png` (the viewport: the popover is fixed-size). */
export async function layoutShot(page: Page, name: string): Promise<string> {
  mkdirSync(LAYOUT_SCREENSHOT_DIR, { recursive: true })
  const path = resolve(LAYOUT_SCREENSHOT_DIR, `layout-${name}.png`)
  await page.screenshot({ path })
  return path
}
