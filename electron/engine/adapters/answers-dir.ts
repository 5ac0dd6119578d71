/**
 * `$NAVI_HOME/answers/`: where Navi and its PermissionRequest hook handler (resources/hooks/navi-hook.sh)
 * meet. The handler reads `listener`, `away` and `sessions/<id>`, keeps `waiting/<request id>` while it
 * waits, and takes `<request id>.deny` or `.allow` by renaming it to `.taken`. Navi writes the rest
 * (always atomically: the handler never sees half a file). What may be written is decided in
 * core/answer-rules.ts.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import {
  parseWaitingMarker,
  takenDecision,
  type AnswerDecision,
  type AnswerOnFile,
  type WaitingMarker,
} from '../core/answer-rules.ts'
import { isPidAlive } from './process.ts'
import { writeFileSafely } from './safe-write.ts'

export const answersDir = (naviHome: string) => join(naviHome, 'answers')

const fileMode = { mode: 0o600 }

function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
}

function readSmall(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').slice(0, 4096)
  } catch {
    return null
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // Already gone: the same outcome.
  }
}

/** The handler's marker for one request, and whether its process still lives. */
export function readWaiting(
  dir: string,
  requestId: string,
): (WaitingMarker & { alive: boolean }) | null {
  const text = readSmall(join(dir, 'waiting', requestId))
  const marker = text === null ? null : parseWaitingMarker(text)
  return marker ? { ...marker, alive: isPidAlive(marker.pid) } : null
}

/** Requests a handler waits on now, with the end of its wait (ms). */
export function waitingRequests(dir: string): Map<string, number> {
  const waiting = new Map<string, number>()
  let names: string[]
  try {
    names = readdirSync(join(dir, 'waiting'))
  } catch {
    return waiting
  }
  for (const name of names) {
    if (name.endsWith('.tmp')) continue
    const marker = readWaiting(dir, name)
    if (marker?.alive) waiting.set(name, marker.deadlineMs)
  }
  return waiting
}

export function answerOnFile(dir: string, requestId: string): AnswerOnFile {
  const has = (suffix: string) =>
    statSync(join(dir, `${requestId}.${suffix}`), { throwIfNoEntry: false }) !== undefined
  if (has('taken')) return 'taken'
  if (has('deny')) return 'deny'
  if (has('allow')) return 'allow'
  return 'none'
}

/** Puts an answer where the handler takes it; a deny also withdraws an allow not taken yet. */
export async function writeAnswer(
  dir: string,
  requestId: string,
  decision: AnswerDecision,
  output: string,
): Promise<void> {
  await writeFileSafely(join(dir, `${requestId}.${decision}`), `${output}\n`, fileMode)
  if (decision === 'deny') removeQuietly(join(dir, `${requestId}.allow`))
}

/**
 * Waits (bounded, polling) until the handler took an answer, and says which; null when it did not in
 * time (it stopped waiting, or the machine is slow: the answer stays for it until then).
 */
export async function awaitTaken(
  dir: string,
  requestId: string,
  timeoutMs: number,
): Promise<AnswerDecision | null> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const text = readSmall(join(dir, `${requestId}.taken`))
    if (text !== null) return takenDecision(text)
    if (Date.now() >= until) return null
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Marks this process as the Navi that answers (the handler waits only while it lives). */
export async function claimListener(dir: string, pid = process.pid): Promise<void> {
  ensureDir(dir)
  await writeFileSafely(join(dir, 'listener'), `${String(pid)}\n`, fileMode)
}

/** Removes the listener mark if it is this process's (another Navi may have taken it over). */
export function releaseListener(dir: string, pid = process.pid): void {
  if (readSmall(join(dir, 'listener'))?.trim() === String(pid)) removeQuietly(join(dir, 'listener'))
}

/** Some Navi listens: the listener file names a live process (one small read, for the runtime's check). */
export function listenerAlive(dir: string): boolean {
  const pid = Number(readSmall(join(dir, 'listener'))?.trim())
  return Number.isSafeInteger(pid) && pid > 1 && isPidAlive(pid)
}

/** Who the handler waits for: every session (`away`) and single sessions, with the seconds to wait. */
export interface AnsweringOptIn {
  away: number | null
  sessions: Record<string, number>
  /** A Navi answers (its listener lives). */
  listening: boolean
}

export function readOptIn(dir: string): AnsweringOptIn {
  const seconds = (path: string): number | null => {
    const value = Number(readSmall(path)?.trim())
    return Number.isSafeInteger(value) && value > 0 ? value : null
  }
  const sessions: Record<string, number> = {}
  let names: string[] = []
  try {
    names = readdirSync(join(dir, 'sessions'))
  } catch {
    // None opted in.
  }
  for (const name of names) {
    const value = seconds(join(dir, 'sessions', name))
    if (value !== null) sessions[name] = value
  }
  return { away: seconds(join(dir, 'away')), sessions, listening: listenerAlive(dir) }
}

/** Session ids as the handler reads them: a file name of these characters only. */
export function isOptInSessionId(id: string): boolean {
  return /^[0-9A-Za-z_-]{1,128}$/.test(id)
}

/** Opts in (seconds) or out (null): every session (`sessionId` null) or one. */
export async function setOptIn(
  dir: string,
  sessionId: string | null,
  seconds: number | null,
): Promise<void> {
  if (sessionId !== null && !isOptInSessionId(sessionId)) {
    throw new Error(`not a session id Navi's hook can read: ${sessionId}`)
  }
  const path = sessionId === null ? join(dir, 'away') : join(dir, 'sessions', sessionId)
  if (seconds === null) return removeQuietly(path)
  ensureDir(sessionId === null ? dir : join(dir, 'sessions'))
  await writeFileSafely(path, `${String(seconds)}\n`, fileMode)
}

/**
 * Removes what no handler will read again: answers and taken files of requests nobody waits on any more,
 * once older than `keepMs` (so a slow handler still finds its answer), and markers of handlers that died.
 */
export function sweepAnswers(dir: string, now: number, keepMs = 10 * 60_000): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const match = /^([A-Za-z0-9]+)\.(allow|deny|taken)$/.exec(name)
    if (!match?.[1]) continue
    const stats = statSync(join(dir, name), { throwIfNoEntry: false })
    const waiting = readWaiting(dir, match[1])
    if (stats && now - stats.mtimeMs > keepMs && !waiting?.alive) removeQuietly(join(dir, name))
  }
  let markers: string[] = []
  try {
    markers = readdirSync(join(dir, 'waiting'))
  } catch {
    return
  }
  for (const name of markers) {
    const path = join(dir, 'waiting', name)
    const marker = name.endsWith('.tmp') ? null : readWaiting(dir, name)
    const stats = statSync(path, { throwIfNoEntry: false })
    if (marker ? !marker.alive : stats && now - stats.mtimeMs > keepMs) removeQuietly(path)
  }
}
