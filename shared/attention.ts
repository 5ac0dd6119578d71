/**
 * The order every face lists projects in (the CLI, the popover, the PM's inbox), and how a PM attention item
 * is known across briefings. Pure; no node:*.
 */
import type { Attention, ProjectSnapshot } from './schemas/project.ts'

/** Needs input first, idle last. */
export const ATTENTION_ORDER: readonly Attention[] = [
  'needs_input',
  'pbi_complete',
  'active',
  'stale',
  'idle',
]

const activityTime = (value: string | null | undefined): number => {
  const at = value ? Date.parse(value) : Number.NaN
  return Number.isFinite(at) ? at : Number.NEGATIVE_INFINITY
}

/** Needs input → PBI complete → active → stale → idle; most recently active first within a group; then name. */
export function sortByAttention(projects: readonly ProjectSnapshot[]): ProjectSnapshot[] {
  return [...projects].sort(
    (a, b) =>
      ATTENTION_ORDER.indexOf(a.attention) - ATTENTION_ORDER.indexOf(b.attention) ||
      activityTime(b.last_activity) - activityTime(a.last_activity) ||
      a.name.localeCompare(b.name),
  )
}

/**
 * A PM attention item's identity across briefings: its project and title as the PM words them (what a
 * notification was already shown for, what the user dismissed).
 */
export const attentionItemKey = (item: { project: string; title: string }): string =>
  `${item.project}\u0000${item.title}`
