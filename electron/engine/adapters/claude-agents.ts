/**
 * `claude agents --json`: Claude Code's documented way to list live sessions from outside (2.1.197+).
 * A call starts the CLI (about a second) and tells less than the live files (`sessions/<pid>.json`: no
 * entrypoint, procStart or status time), so Navi reads the files and uses this only when they cannot be
 * read (a `sessions/` folder it may not list). At most one call per {@link AGENTS_CALL_INTERVAL_MS}.
 */
import { loadExeca } from './execa-lazy.ts'
import * as z from 'zod'
import type { LiveSessionRecord } from '../core/source-records.ts'
import { asEpochMs, latestPlausibleMs } from '../core/json-narrow.ts'
import { isSessionProcessAlive } from './claude-live-sessions.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'

export const AGENTS_CALL_INTERVAL_MS = 15_000
const CALL_TIMEOUT_MS = 10_000
const SOURCE = 'claude agents --json'

const agentSchema = lazySchema(() =>
  z.object({
    pid: z.number().int().positive(),
    sessionId: z.string().min(1).max(200),
    cwd: z.string().max(4096).nullish(),
    startedAt: z.number().nullish(),
    name: z.string().max(200).nullish(),
    status: z.enum(['idle', 'busy', 'waiting']).nullish().catch(null),
    waitingFor: z.string().max(200).nullish(),
  }),
)

/** The listed sessions as live records, or an error text. `claudeConfigDir` is passed to the CLI. */
export async function readAgentsJson(
  claudeConfigDir: string,
): Promise<{ records: LiveSessionRecord[]; error: string | null }> {
  const bin = process.env.NAVI_CLAUDE_BIN || 'claude'
  try {
    const { execa } = await loadExeca()
    const { stdout } = await execa(bin, ['agents', '--json'], {
      env: { CLAUDE_CONFIG_DIR: claudeConfigDir, DISABLE_AUTOUPDATER: '1' },
      timeout: CALL_TIMEOUT_MS,
      stdin: 'ignore',
    })
    return { records: parseAgentsJson(stdout, Date.now()), error: null }
  } catch (error) {
    return {
      records: [],
      error: `${SOURCE}: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}

/** Entries that are not sessions are skipped. Pure apart from the liveness check of each pid. */
export function parseAgentsJson(stdout: string, now: number): LiveSessionRecord[] {
  let value: unknown
  try {
    value = JSON.parse(stdout)
  } catch {
    // Output that is not JSON lists no sessions; the caller's note says how many entries came from it.
    return []
  }
  if (!Array.isArray(value)) return []
  const latest = latestPlausibleMs(now)
  return value.flatMap((entry) => {
    const parsed = agentSchema.safeParse(entry)
    if (!parsed.success) return []
    const a = parsed.data
    return [
      {
        pid: a.pid,
        sessionId: a.sessionId,
        cwd: a.cwd ?? null,
        startedAt: asEpochMs(a.startedAt, latest),
        procStart: null,
        name: a.name ?? null,
        entrypoint: null,
        status: a.status ?? null,
        waitingFor: a.waitingFor ?? null,
        statusUpdatedAt: null,
        alive: isSessionProcessAlive(a.pid, null),
        file: SOURCE,
      },
    ]
  })
}

/** Calls `claude agents --json` at most once per interval, answering from the last call in between. */
export function createAgentsFallback(claudeConfigDir: string) {
  let last: { at: number; records: LiveSessionRecord[]; error: string | null } | null = null
  return async (now: number) => {
    if (!last || now - last.at >= AGENTS_CALL_INTERVAL_MS) {
      last = { at: now, ...(await readAgentsJson(claudeConfigDir)) }
    }
    return last
  }
}
