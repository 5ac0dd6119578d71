/**
 * The briefing zone as text: prose, attention items by priority, breadcrumbs, the PM's suggestions and
 * patterns (with the digest lines they cite), age and staleness.
 */
import type { PmAnswer } from '../../shared/schemas/ask.ts'
import type { BriefingState } from '../../shared/schemas/briefing.ts'
import { clip, formatAgo } from './format.ts'
import { inertBlock } from '../../shared/text.ts'

const PRIORITY_ORDER = { high: 0, medium: 1, low: 2 } as const

export function formatBriefing(state: BriefingState, now: number): string {
  if (!state.briefing) {
    if (state.claude_missing) return `No PM briefing yet: ${state.claude_missing}`
    return state.error ? `No PM briefing yet: ${state.error}` : 'No PM briefing yet.'
  }
  const { output, generated_at } = state.briefing
  const stale = state.is_stale ? ` (stale: ${clip(state.error ?? 'the last run failed', 120)})` : ''
  const lines = [
    `PM — updated ${formatAgo(generated_at, now)} ago${stale}`,
    '',
    wrap(output.briefing, 96),
  ]
  const items = [...output.attention_items].sort(
    (a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority],
  )
  if (items.length > 0) lines.push('')
  for (const item of items) {
    const description = item.description ? ` — ${clip(item.description, 100)}` : ''
    lines.push(
      `⚠ ${item.priority.padEnd(6)} ${clip(item.project, 24)}: ${clip(item.title, 80)}${description}`,
    )
  }
  if (output.breadcrumbs.length > 0) lines.push('', 'Where you left off:')
  for (const crumb of output.breadcrumbs) {
    lines.push(`  ${clip(crumb.project, 24)}: ${clip(crumb.message, 100)}`)
  }
  if (output.suggestions.length > 0) lines.push('', 'Suggestions:')
  for (const s of output.suggestions) {
    const evidence = s.evidence.length > 0 ? ` (${clip(s.evidence.join('; '), 140)})` : ''
    lines.push(`  ${clip(s.project, 24)}: ${clip(s.title, 80)}${evidence}`)
  }
  if (output.patterns.length > 0) lines.push('', 'Patterns:')
  for (const p of output.patterns) {
    lines.push(
      `  ${clip(p.project, 24)}: ${clip(p.statement, 100)} [${clip(p.cites.join(', '), 100)}]`,
    )
  }
  if (state.claude_missing) lines.push('', state.claude_missing)
  return lines.join('\n')
}

function wrap(text: string, width: number): string {
  const words = clip(text, 2000).split(' ')
  const lines: string[] = []
  let current = ''
  for (const word of words) {
    if (current && current.length + word.length + 1 > width) {
      lines.push(current)
      current = word
    } else current = current ? `${current} ${word}` : word
  }
  if (current) lines.push(current)
  return lines.join('\n')
}

/** The PM's answer to `navi ask`, made inert, and the actions it offers (the CLI only names them). */
export function formatAnswer(answer: PmAnswer): string {
  const lines = [inertBlock(answer.answer.trim())]
  for (const action of answer.actions) {
    const where =
      action.kind === 'go_to_session'
        ? 'session'
        : action.kind === 'answer_request'
          ? 'answer with navi answer, session'
          : 'project'
    lines.push(
      `  → ${clip(action.label, 60)} (${where} ${clip(action.session ?? action.project, 40)})`,
    )
  }
  return lines.join('\n')
}
