/**
 * Words the faces print for schema values, apart from the zod schemas themselves, so that a face that
 * only prints (the CLI answering from a running Navi) never loads zod.
 */
import type { SessionStatus } from './schemas/session.ts'
import type { Pbi } from './schemas/project.ts'

/** The word every face (CLI, popover) shows for a status. */
export const SESSION_STATUS_LABEL: Record<SessionStatus, string> = {
  working: 'working',
  needs_permission: 'permission',
  waiting_input: 'waiting',
  idle: 'idle',
  ended: 'ended',
}

/** `PBI-8 Research agent` when the id is a ticket-like key, else just the title (an opaque list id). */
export function pbiLabel(pbi: Pick<Pbi, 'id' | 'title'>): string {
  return /^[A-Za-z]+-\d+$/.test(pbi.id) ? `${pbi.id} ${pbi.title}` : pbi.title
}
