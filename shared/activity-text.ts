/**
 * A project's progress in words when no task list says it (current Claude models keep none by default):
 * `2 turns in the last hour, last: fix the login bug`. Shared by the CLI and the popover; the prompt is
 * untrusted text and comes out inert, on one line, clipped.
 */
import type { TurnActivity } from './schemas/project.ts'
import { clipText } from './text.ts'

const PROMPT_MAX = 60

export function turnActivityText(activity: TurnActivity): string | null {
  const last = activity.last_turn
  if (!last && activity.turns_last_hour === 0) return null
  const what = last
    ? last.prompt
      ? clipText(last.prompt, PROMPT_MAX)
      : 'after a background task'
    : null
  const n = activity.turns_last_hour
  if (n === 0) return what ? `last turn: ${what}` : null
  const count = `${String(n)} turn${n === 1 ? '' : 's'} in the last hour`
  return what ? `${count}, last: ${what}` : count
}
