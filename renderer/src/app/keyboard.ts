import { useBriefingStore } from '../store/briefing-store.ts'
import { useEventsStore } from '../store/events-store.ts'
import { decideKey, type KeyCommand } from '../store/keymap.ts'
import { useProjectsStore } from '../store/projects-store.ts'
import { moveCursor, resolveCursor, sortProjects } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'

/** Listens for the popover's keys on the whole window, once, from main.tsx. Returns the unsubscribe. */
export function bindKeyboard(): () => void {
  const onKey = (event: KeyboardEvent) => {
    const ui = useUiStore.getState()
    const command = decideKey({
      key: event.key,
      modified: event.ctrlKey || event.metaKey || event.altKey,
      view: ui.view,
      zone: ui.zone,
      target: targetKind(event.target),
    })
    if (!command) return
    event.preventDefault()
    run(command)
  }
  window.addEventListener('keydown', onKey)
  return () => window.removeEventListener('keydown', onKey)
}

function targetKind(target: EventTarget | null): 'text' | 'control' | 'other' {
  if (!(target instanceof HTMLElement)) return 'other'
  if (target.isContentEditable || target.matches('input, textarea, select')) return 'text'
  if (target.matches('button, a[href], summary')) return 'control'
  return 'other'
}

function run(command: KeyCommand): void {
  const ui = useUiStore.getState()
  const projectIds = () =>
    sortProjects(useProjectsStore.getState().state?.projects ?? []).map((p) => p.name)
  const events = () => useEventsStore.getState().events
  switch (command.kind) {
    case 'toggle-zone':
      return ui.toggleZone()
    case 'refresh':
      useBriefingStore.getState().refresh()
      return
    case 'back':
      return ui.back()
    case 'hide':
      ui.hidePopover()
      return
    case 'move': {
      if (ui.zone === 'projects') {
        const ids = projectIds()
        return ui.setProjectCursor(
          moveCursor(ids, resolveCursor(ids, ui.projectCursor), command.delta),
        )
      }
      const ids = events().map((e) => e.id)
      return ui.setEventCursor(moveCursor(ids, resolveCursor(ids, ui.eventCursor), command.delta))
    }
    case 'open': {
      if (ui.zone === 'projects') {
        const name = resolveCursor(projectIds(), ui.projectCursor)
        return name ? ui.navigate('project', name) : undefined
      }
      const id = resolveCursor(
        events().map((e) => e.id),
        ui.eventCursor,
      )
      const project = events().find((e) => e.id === id)?.project
      return project ? ui.navigate('project', project) : undefined
    }
    case 'expand': {
      const name = resolveCursor(projectIds(), ui.projectCursor)
      return name ? ui.toggleExpanded(name) : undefined
    }
  }
}
