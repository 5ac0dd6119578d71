/**
 * The notifier's loop without Electron: keeps the reducer's state and its one wake-up timer, and hands
 * each notification it decides to `show`. `notifier.ts` plugs in Electron's `Notification`; tests and the
 * benchmark plug in a recorder, so they run this very loop.
 */
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { Settings } from '../../../shared/schemas/settings.ts'
import {
  decideNotifications,
  initialNotifierState,
  withSeenAttention,
  type AttentionItemInput,
  type NotificationSpec,
} from './decide.ts'

export interface NotificationLoopDeps {
  getSettings(): Settings
  isPopoverVisible(): boolean
  show(spec: NotificationSpec): void
  /** Takes the notification with this tag off the screen (see NotificationSpec.tag). */
  withdraw(tag: string): void
  /** Milliseconds since the epoch. @default Date.now */
  clock?: () => number
  /** A failure while deciding or showing; it never reaches the engine's listener. */
  onError?: (error: unknown) => void
}

export interface NotificationLoop {
  /** New engine events and the projects' current state (for session reasons and tmux panes). */
  handleEvents(events: EngineEvent[], projects: ProjectSnapshot[]): void
  /** The attention list of a briefing that just arrived. */
  handleAttention(items: AttentionItemInput[]): void
  /** The attention list the user has already had (the cached briefing): remembered, not shown. */
  seedAttention(items: AttentionItemInput[]): void
  stop(): void
}

export function createNotificationLoop(deps: NotificationLoopDeps): NotificationLoop {
  const now = deps.clock ?? Date.now
  let state = initialNotifierState()
  let projects: ProjectSnapshot[] = []
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false

  const schedule = (wakeAt: number | null) => {
    if (timer) clearTimeout(timer)
    timer = null
    if (wakeAt !== null) timer = setTimeout(() => step([]), Math.max(0, wakeAt - now()))
  }

  const step = (events: EngineEvent[], attentionItems?: AttentionItemInput[]) => {
    if (stopped) return
    try {
      const decision = decideNotifications(state, {
        now: now(),
        events,
        projects,
        ...(attentionItems ? { attentionItems } : {}),
        settings: deps.getSettings(),
        popover: { visible: deps.isPopoverVisible() },
      })
      state = decision.state
      schedule(decision.nextWakeAt)
      for (const tag of decision.withdraw) {
        try {
          deps.withdraw(tag)
        } catch (error) {
          deps.onError?.(error)
        }
      }
      for (const spec of decision.notifications) {
        try {
          deps.show(spec)
        } catch (error) {
          deps.onError?.(error)
        }
      }
    } catch (error) {
      deps.onError?.(error)
    }
  }

  return {
    handleEvents(events, current) {
      projects = current
      step(events)
    },
    handleAttention: (items) => step([], items),
    seedAttention(items) {
      state = withSeenAttention(state, items)
    },
    stop() {
      stopped = true
      schedule(null)
    },
  }
}
