/** Human output of the `navi` CLI: short, aligned, pure (text in, text out). */
import { turnActivityText } from '../../shared/activity-text.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { Suggestion } from '../../shared/schemas/suggestion.ts'
import type { Session } from '../../shared/schemas/session.ts'
import { pbiLabel, SESSION_STATUS_LABEL } from '../../shared/labels.ts'
import type { DoctorOutput } from '../../shared/schemas/cli.ts'
import { describeEvent } from '../../shared/event-text.ts'
import { clipText, inertLine } from '../../shared/text.ts'

const ATTENTION_ICON: Record<ProjectSnapshot['attention'], string> = {
  needs_input: '?',
  pbi_complete: '✓',
  active: '●',
  stale: '!',
  idle: '·',
}

export function formatAgo(iso: string | null, now: number): string {
  if (!iso) return '-'
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (seconds < 60) return `${seconds}s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`
  return `${Math.floor(seconds / 86_400)}d`
}

/** The seed's "Projects" zone as text: one row per project, its sessions indented below. */
export function formatStatus(projects: ProjectSnapshot[], now: number): string {
  if (projects.length === 0)
    return 'No projects yet: start a Claude Code or Codex session, or register one in config.yaml.'
  const rows = projects.map((p) => [
    ATTENTION_ICON[p.attention],
    clip(p.name, 30),
    p.branch ?? '',
    // Without a task list, the turns the agents finished are the progress.
    p.current_pbi
      ? clip(pbiLabel(p.current_pbi), 28)
      : clip(turnActivityText(p.activity) ?? '', 60),
    p.current_pbi ? `${p.current_pbi.tasks.done}/${p.current_pbi.tasks.total}` : '',
    p.session_status ? SESSION_STATUS_LABEL[p.session_status] : 'no session',
    formatAgo(p.last_activity, now),
  ])
  const lines = table(rows)
  const out: string[] = []
  projects.forEach((p, i) => {
    out.push(lines[i] ?? '')
    for (const s of p.sessions.filter((x) => x.status !== 'ended')) {
      const reason = s.status_reason ? ` — ${clip(s.status_reason, 60)}` : ''
      out.push(`    ${s.agent} ${clip(s.name, 30)}: ${SESSION_STATUS_LABEL[s.status]}${reason}`)
      const asks = s.pending_request?.description
      if (asks) out.push(`      asks: ${clip(asks, 90)}`)
      const how = answerableHow(s, now)
      if (how) out.push(`      answer: navi answer ${s.id.slice(0, 8)} allow|deny (${how})`)
      if (s.trouble) out.push(`      ! ${clip(s.trouble.reason, 90)}`)
    }
    if (p.errors.length > 0) out.push(`    ! ${clip(p.errors[0] ?? '', 90)}`)
  })
  return out.join('\n')
}

/** How Navi can answer a session's request now, or null when it cannot. */
function answerableHow(s: Session, now: number): string | null {
  const p = s.pending_request
  if (s.status !== 'needs_permission' || !p?.request_id || !p.input_digest) return null
  if (p.answer_until && Date.parse(p.answer_until) > now) {
    return `held for ${formatLeft(p.answer_until, now)}`
  }
  return s.tmux_pane && s.tmux_socket ? 'typed into its tmux pane' : null
}

/** Time left until an ISO instant, in whole seconds or minutes. */
function formatLeft(until: string, now: number): string {
  const seconds = Math.max(0, Math.round((Date.parse(until) - now) / 1000))
  return seconds < 120 ? `${String(seconds)}s` : `${String(Math.round(seconds / 60))}m`
}

/** The last line of `navi status` when the PM's latest briefing holds attention items. */
export function pmAttentionLine(count: number): string {
  if (count <= 0) return ''
  return `\nPM: ${String(count)} ${count === 1 ? 'item needs' : 'items need'} attention (navi brief shows them)`
}

export function formatSessions(
  sessions: (Session & { project: string | null })[],
  now: number,
): string {
  if (sessions.length === 0) return 'No sessions found.'
  const header = ['AGENT', 'STATUS', 'PROJECT', 'SESSION', 'TOKENS', 'ACTIVE', 'CWD']
  const rows = sessions.map((s) => [
    s.agent,
    SESSION_STATUS_LABEL[s.status],
    s.project ?? '-',
    clip(s.name, 28),
    compactNumber(s.tokens.total),
    formatAgo(s.last_activity, now),
    s.cwd,
  ])
  return table([header, ...rows]).join('\n')
}

/** The shared wording (shared/event-text.ts), re-exported for the CLI's callers. */
export { describeEvent }
/** The events as lines (shared/events-text.ts: a running Navi writes them too). */
export { formatEvents } from '../../shared/events-text.ts'

/** One event as `navi watch` prints it: time of day with seconds, project, what happened. */
export function formatEventLine(e: EngineEvent): string {
  const time = new Date(e.timestamp).toTimeString().slice(0, 8)
  return `${time}  ${clip(e.project, 30)}  ${describeEvent(e)}`
}

export function formatDoctor(report: DoctorOutput): string {
  const lines = report.checks.map((c) => {
    const fix = !c.ok && c.fix ? `\n      fix: ${inertLine(c.fix)}` : ''
    return `${c.ok ? 'ok  ' : 'MISS'}  ${c.name.padEnd(16)} ${inertLine(c.detail)}${fix}`
  })
  const corrupt = Object.entries(report.corrupt_lines).filter(([, n]) => n > 0)
  lines.push(
    corrupt.length === 0
      ? 'ok    corrupt lines    none skipped'
      : `note  corrupt lines    skipped ${corrupt.map(([k, n]) => `${n} in ${k}`).join(', ')}`,
  )
  for (const note of report.notes) lines.push(`note  ${inertLine(note)}`)
  for (const error of report.errors) lines.push(`err   ${inertLine(error)}`)
  if (report.log) {
    const { file, recent_errors: recent } = report.log
    lines.push(
      `note  log              ${inertLine(file)}${recent.length ? `, its newest errors:` : ' (no errors)'}`,
    )
    for (const line of recent) lines.push(`      ${inertLine(line)}`)
  }
  return lines.join('\n')
}


function compactNumber(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`
  return String(n)
}

/** Untrusted text on one line, at most `max` long: the shared inert-text rule (shared/text.ts). */
export const clip = clipText

/** Rows as aligned columns; every cell is made inert first, so no field can break the layout. */
function table(cells: string[][]): string[] {
  const rows = cells.map((row) => row.map(inertLine))
  const widths: number[] = []
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)))
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  )
}

/** `navi status`'s suggestions: what to do next and why (Navi's rules and the PM's). */
export function formatSuggestions(suggestions: readonly Suggestion[]): string {
  if (suggestions.length === 0) return ''
  const lines = suggestions.map(
    (s) => `  ${clip(s.project, 30)}: ${clip(s.title, 80)} (${clip(s.evidence.join('; '), 160)})`,
  )
  return `\n\nSuggestions:\n${lines.join('\n')}`
}
