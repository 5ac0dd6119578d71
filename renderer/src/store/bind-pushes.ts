import { on, onPushesResumed } from '../lib/api.ts'
import { useAskStore } from './ask-store.ts'
import { useBriefingStore } from './briefing-store.ts'
import { useEventsStore } from './events-store.ts'
import type { PresenceSignal } from './presence.ts'
import { useProjectsStore } from './projects-store.ts'
import { useSettingsStore } from './settings-store.ts'
import { useTasksStore } from './tasks-store.ts'
import { useToolsStore } from './tools-store.ts'
import { useUiStore } from './ui-store.ts'

/** How often relative times ("updated 3m ago") are recomputed. */
const CLOCK_MS = 30_000

/** Subscribes every push channel to its store, once, from main.tsx. Returns the unsubscribe. */
export function bindPushes(): () => void {
  const offs = [
    on('events:appended', (events) => useEventsStore.getState().append(events)),
    on('state:changed', (state) => useProjectsStore.getState().apply(state)),
    on('briefing:changed', (view) => useBriefingStore.getState().applyView(view)),
    on('pm:status', (status) => useBriefingStore.getState().applyStatus(status)),
    on('pm:answer', ({ question, text }) => useAskStore.getState().progress(question, text)),
    on('task:changed', (task) => useTasksStore.getState().apply(task)),
    on('popover:navigate', ({ view, project }) => useUiStore.getState().navigate(view, project)),
    // Whatever was pushed while the stream was down is lost: load it all again.
    onPushesResumed(loadAll),
  ]
  return () => offs.forEach((off) => off())
}

/** Loads everything the popover shows: at start, and again after pushes may have been missed. */
export function loadAll(): void {
  useProjectsStore.getState().load()
  useEventsStore.getState().load()
  useBriefingStore.getState().load()
  useToolsStore.getState().load()
  useSettingsStore.getState().load()
  useTasksStore.getState().load()
}

/**
 * The 30 s clock, and the user leaving and coming back (breadcrumbs, a fresh "now"): the page hidden and
 * shown again (the Electron popover), or the window losing and regaining focus (a browser tab).
 */
export function bindClock(): () => void {
  const tick = () => useUiStore.getState().tick(Date.now())
  const timer = window.setInterval(tick, CLOCK_MS)
  const presence = (signal: PresenceSignal) => () =>
    useUiStore.getState().presenceChanged(signal, Date.now())
  const onVisibility = () =>
    presence(document.visibilityState === 'visible' ? 'visible' : 'hidden')()
  const onBlur = presence('blurred')
  const onFocus = presence('focused')
  document.addEventListener('visibilitychange', onVisibility)
  window.addEventListener('blur', onBlur)
  window.addEventListener('focus', onFocus)
  return () => {
    window.clearInterval(timer)
    document.removeEventListener('visibilitychange', onVisibility)
    window.removeEventListener('blur', onBlur)
    window.removeEventListener('focus', onFocus)
  }
}
