/**
 * In-memory stand-ins for the engine, the PM and the settings store, for tests of the contract
 * handlers, the push hub and the dispatcher: `fakeEngine()` emits cycles on demand (`emit`), `fakePm()`
 * emits statuses and briefings, `memorySettings()` keeps settings in memory.
 */
import type { EngineState } from '../../shared/schemas/state.ts'
import type { BriefingState, PmRunStatus } from '../../shared/schemas/briefing.ts'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'
import { settingsSchema, type Settings } from '../../shared/schemas/settings.ts'
import {
  emptyDiagnostics,
  type Engine,
  type EngineListener,
  type SessionWithProject,
} from '../../electron/engine/index.ts'
import type { Pm } from '../../electron/pm/index.ts'
import type { PmRunResult } from '../../electron/pm/invoke.ts'
import { mergeSettingPatch } from '../../shared/schemas/settings.ts'
import type { SettingsStore } from '../../electron/runtime/settings-store.ts'

export const emptyState = (): EngineState => ({
  projects: [],
  generated_at: '2026-01-01T00:00:00.000Z',
  errors: [],
})

export function makeEvent(id: string, timestamp: string, project = 'apollo'): EngineEvent {
  return engineEventSchema.parse({
    id,
    timestamp,
    type: 'commit',
    project,
    details: { sha: id, message: `commit ${id}` },
  })
}

export type FakeEngine = Engine & {
  emit(events: EngineEvent[], state?: EngineState): void
  events: EngineEvent[]
  sessions: SessionWithProject[]
  listenerCount(): number
}

export function fakeEngine(): FakeEngine {
  const listeners = new Set<EngineListener>()
  let state = emptyState()
  const engine: FakeEngine = {
    events: [],
    sessions: [],
    start: async () => state,
    stop: async () => undefined,
    refresh: async () => state,
    getState: () => state,
    getSessions: () => engine.sessions,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async listEvents(query) {
      return engine.events.filter((e) => !query.project || e.project === query.project)
    },
    async record(events) {
      engine.events.push(...events)
      engine.emit([...events])
    },
    diagnostics: emptyDiagnostics,
    emit(events, next = state) {
      state = next
      for (const listener of listeners) listener(events, state)
    },
    listenerCount: () => listeners.size,
  }
  return engine
}

export const noBriefing = (): BriefingState => ({
  briefing: null,
  is_stale: false,
  error: null,
  claude_missing: null,
})

export type FakePm = Pm & {
  status(status: PmRunStatus): void
  briefing(state: BriefingState): void
  runs: number
  /** The questions asked, in order (each answered `you asked: <question>`). */
  asked: string[]
  /** The attention items dismissed, in order. */
  dismissed: { project: string; title: string; until: string | null }[]
}

export function fakePm(current: BriefingState = noBriefing()): FakePm {
  const statusListeners = new Set<(s: PmRunStatus) => void>()
  const briefingListeners = new Set<(s: BriefingState, r: PmRunResult | null) => void>()
  const pm: FakePm = {
    runs: 0,
    asked: [],
    dismissed: [],
    async dismissAttention(item, until) {
      pm.dismissed.push({ ...item, until })
    },
    async ask(question) {
      pm.asked.push(question)
      return { answer: { answer: `you asked: ${question}`, actions: [] }, error: null }
    },
    start: async () => undefined,
    stop: async () => undefined,
    async runNow() {
      pm.runs++
      return new Promise<BriefingState>(() => undefined)
    },
    getBriefing: async () => current,
    reconfigure: () => undefined,
    schedule: () => null,
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    onBriefing(listener) {
      briefingListeners.add(listener)
      return () => briefingListeners.delete(listener)
    },
    onAnswerProgress: () => () => undefined,
    status: (s) => statusListeners.forEach((l) => l(s)),
    briefing(state) {
      current = state
      briefingListeners.forEach((l) => l(state, {} as PmRunResult))
    },
  }
  return pm
}

export function memorySettings(initial: Partial<Settings> = {}): SettingsStore {
  let current = settingsSchema.parse(initial)
  return {
    get: () => current,
    async set(patch) {
      current = mergeSettingPatch(current, patch)
      return current
    },
    onChange: () => () => undefined,
    refresh: async () => current,
    problems: () => [],
    dispose: () => undefined,
  }
}
