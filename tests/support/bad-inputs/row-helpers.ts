/** What the content rows share: hostile text, normal transcript lines, and checks of a case's output. */
import { SESSION_ID, type CaseContext } from './context.ts'
import type { BadInput, CaseOutput } from './types.ts'

/** Clears the screen, writes the clipboard (OSC 52), reverses text and hides characters. */
export const HOSTILE = '\u001b[2J\u001b]52;c;SGFja2Vk\u0007\u202eevil\u2066x\u2069\u200bend\u009b1m'

export const MINUTE = 60_000
export const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString()
export const MB = 1024 * 1024

export const sessionOf = (out: CaseOutput, id = SESSION_ID) =>
  out.sessions?.sessions.find((session) => session.id === id)

export const userLine = (ctx: CaseContext, over: Record<string, unknown> = {}) => ({
  type: 'user',
  message: { role: 'user', content: 'hello' },
  timestamp: iso(10 * MINUTE),
  cwd: ctx.scratch,
  sessionId: SESSION_ID,
  ...over,
})

export const assistantLine = (
  ctx: CaseContext,
  usage: unknown,
  over: Record<string, unknown> = {},
) => ({
  type: 'assistant',
  message: {
    id: `msg_${Math.random().toString(36).slice(2)}`,
    role: 'assistant',
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    usage,
  },
  timestamp: iso(9 * MINUTE),
  cwd: ctx.scratch,
  sessionId: SESSION_ID,
  ...over,
})

export const tokensFinite: BadInput['check'] = (out) => {
  const session = sessionOf(out)
  if (!session) return 'the session with bad usage is gone'
  const values = Object.values(session.tokens)
  return values.every((v) => Number.isSafeInteger(v) && v >= 0)
    ? null
    : `tokens ${JSON.stringify(session.tokens)}`
}

export const activityBelievable: BadInput['check'] = (out) => {
  const at = sessionOf(out)?.last_activity
  if (at === undefined) return 'the session is gone'
  if (at === null) return null
  const ms = Date.parse(at)
  return Number.isFinite(ms) && ms <= Date.now() + 24 * 3600_000 && /^\d{4}-/.test(at)
    ? null
    : `last_activity ${at}`
}

export const listed: BadInput['check'] = (out) =>
  sessionOf(out) ? null : 'the session is not listed'
