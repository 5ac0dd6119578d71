/**
 * Navi's own suggestions, from the projects' state alone (no model): deterministic, so they show at once
 * and a test can hold them to their evidence. Pure. The PM may add its own (pmOutputSchema.suggestions).
 *
 * - `open_pr`: every task of the project's current list is done, the branch is ahead of its upstream and
 *   no pull request is open for it (only when `gh` could tell: `has_pr` false, never unknown).
 * - `unblock_session`: a session has waited on its user longer than the trouble threshold.
 * - `review_stall`: a session in trouble (stalled, looping, failing the same command, API errors).
 */
import type { PmOutput } from '../../../shared/schemas/briefing.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { Suggestion } from '../../../shared/schemas/suggestion.ts'
import { clipText } from '../../../shared/text.ts'
import { pbiLabel } from '../../../shared/labels.ts'

const NAME = 60

export function ruleSuggestions(projects: readonly ProjectSnapshot[]): Suggestion[] {
  return projects.flatMap((project) => [...prSuggestion(project), ...sessionSuggestions(project)])
}

function prSuggestion(p: ProjectSnapshot): Suggestion[] {
  const pbi = p.current_pbi
  const ahead = p.commits_ahead ?? 0
  if (!pbi || pbi.tasks.total === 0 || pbi.tasks.done < pbi.tasks.total) return []
  if (ahead <= 0 || p.has_pr !== false || !p.branch) return []
  const branch = clipText(p.branch, NAME)
  const title = clipText(pbiLabel(pbi), NAME)
  return [
    {
      kind: 'open_pr',
      project: p.name,
      title: `${title} is done: ready for a PR?`,
      evidence: [
        `all ${String(pbi.tasks.total)} tasks of ${title} are done`,
        `${branch} is ${String(ahead)} commit${ahead === 1 ? '' : 's'} ahead of ${p.git?.upstream ? clipText(p.git.upstream, NAME) : 'its upstream'}`,
        `no pull request is open for ${branch}`,
      ],
      action: { type: 'open_project', project: p.name },
      source: 'rule',
    },
  ]
}

function sessionSuggestions(p: ProjectSnapshot): Suggestion[] {
  const out: Suggestion[] = []
  for (const s of p.sessions) {
    if (s.status === 'ended' || !s.trouble) continue
    const name = clipText(s.name, NAME)
    const go = s.tmux_pane
      ? { type: 'go_to_session' as const, project: p.name, session_id: s.id }
      : { type: 'open_project' as const, project: p.name }
    out.push({
      kind: s.trouble.kind === 'waiting_long' ? 'unblock_session' : 'review_stall',
      project: p.name,
      title:
        s.trouble.kind === 'waiting_long' ? `${name} is waiting on you` : `${name} looks stuck`,
      evidence: [
        clipText(s.trouble.reason, 200),
        ...(s.trouble.since ? [`since ${s.trouble.since}`] : []),
      ],
      action: go,
      source: 'rule',
    })
  }
  return out
}

/**
 * What a new briefing still lists, for keeping dismissals: its attention items and suggestions, and Navi's
 * rule suggestions (dismissed the same way, so those still suggested stay dismissed).
 */
export function stillListed(
  output: Pick<PmOutput, 'attention_items' | 'suggestions'> | undefined,
  projects: readonly ProjectSnapshot[],
): { project: string; title: string }[] {
  return [
    ...(output?.attention_items ?? []),
    ...(output?.suggestions ?? []),
    ...ruleSuggestions(projects),
  ]
}
