/**
 * When each repository was last read with git and what its refs and index looked like then (its
 * fingerprint), kept for the next process: a `navi status` with no Navi running takes a repository
 * whose fingerprint is unchanged (and where no agent was active since) from the last snapshot instead of
 * running git in it, as a running engine does. A cache: a missing or broken file means reading with git.
 */
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { readRegularTextSync } from './safe-read.ts'
import { writeFileSafely } from './safe-write.ts'

const FORMAT = 'navi-repo-marks/1'

export interface RepoMark {
  fingerprint: string
  /** Epoch ms of the git read the fingerprint belongs to. */
  readAt: number
}

/** The marks in `file`; none when it is missing or not one Navi wrote. */
export function loadRepoMarks(file: string): Map<string, RepoMark> {
  const marks = new Map<string, RepoMark>()
  let data: unknown
  try {
    data = JSON.parse(readRegularTextSync(file, { maxBytes: 16 * 1024 * 1024 }))
  } catch {
    // No marks yet (or not readable): every repository is read with git once, as on a first start.
    return marks
  }
  const { format, repos } = (data ?? {}) as { format?: unknown; repos?: unknown }
  if (format !== FORMAT || typeof repos !== 'object' || repos === null) return marks
  for (const [root, mark] of Object.entries(repos)) {
    const { fingerprint, readAt } = (mark ?? {}) as Partial<Record<string, unknown>>
    if (typeof fingerprint === 'string' && typeof readAt === 'number' && Number.isFinite(readAt))
      marks.set(root, { fingerprint, readAt })
  }
  return marks
}

/** Replaces the marks atomically; not synced (a cache: losing it costs one git read per repository). */
export async function saveRepoMarks(
  file: string,
  marks: ReadonlyMap<string, RepoMark>,
): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const repos = Object.fromEntries(marks)
  await writeFileSafely(file, JSON.stringify({ format: FORMAT, repos }), { fsync: false })
}
