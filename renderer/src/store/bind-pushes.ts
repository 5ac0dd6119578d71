import { on } from '../lib/api.ts'
import { useBriefingStore } from './briefing-store.ts'
import { useEventsStore } from './events-store.ts'
import { useProjectsStore } from './projects-store.ts'
import { useSettingsStore } from './settings-store.ts'
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
    on('popover:navigate', ({ view, project }) => useUiStore.getState().navigate(view, project)),
  ]
  return () => offs.forEach((off) => off())
}

/** The first load of everything the popover shows. */
export function loadAll(): void {
  useProjectsStore.getState().load()
  useEventsStore.getState().load()
  useBriefingStore.getState().load()
  useToolsStore.getState().load()
  useSettingsStore.getState().load()
}

/** The 30 s clock, and the page being hidden and shown again (breadcrumbs, a fresh "now"). */
export function bindClock(): () => void {
  const tick = () => useUiStore.getState().tick(Date.now())
  const timer = window.setInterval(tick, CLOCK_MS)
  const onVisibility = () =>
    useUiStore.getState().visibilityChanged(document.visibilityState === 'visible', Date.now())
  document.addEventListener('visibilitychange', onVisibility)
  return () => {
    window.clearInterval(timer)
    document.removeEventListener('visibilitychange', onVisibility)
  }
}
