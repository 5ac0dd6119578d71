#!/usr/bin/env node
/**
 * Navi's Claude Code hook handler. Claude Code runs it for every hook event Navi installed (see
 * `electron/engine/core/hooks-settings.ts`) with the event's JSON payload on stdin.
 *
 * It keeps the few fields session status needs, adds `received_at` and `claude_pid`, and appends ONE
 * line to `$NAVI_HOME/hooks/events.jsonl` with a single O_APPEND write, so concurrent sessions never
 * interleave. It is dependency-free (copied to `$NAVI_HOME/bin/` at install), prints nothing (the
 * stdout of some hooks is read by Claude Code) and always exits 0, even when Navi is not running or
 * its home is unwritable: a hook must never block or fail the agent.
 *
 * NAVI_HOME: the environment variable, else `--navi-home <dir>` (baked in at install), else ~/.navi.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout } from 'node:timers'

/** Payloads bigger than this (a Write of a large file) are not kept in memory; see salvageHead. */
const MAX_STDIN_BYTES = 4 * 1024 * 1024
/** Claude Code closes stdin after writing; this only guards a caller that never does. */
const STDIN_TIMEOUT_MS = 5000
const ROTATE_AT_BYTES = 20 * 1024 * 1024
const MAX_ERROR_LOG_BYTES = 1024 * 1024
const MAX_STRING = 500
const MAX_PATH = 4096
const MAX_PROMPT = 200
const MAX_TOOL_DETAIL = 200
const MAX_ANCESTORS = 6

/** Top-level string fields kept as they are (capped), with their cap. */
const KEPT_FIELDS = {
  hook_event_name: 100,
  session_id: 200,
  cwd: MAX_PATH,
  transcript_path: MAX_PATH,
  tool_name: 200,
  tool_use_id: 200,
  message: MAX_STRING,
  notification_type: 100,
  reason: MAX_STRING,
  error: MAX_STRING,
  source: 100,
  task_id: 200,
  task_subject: MAX_STRING,
  agent_id: 200,
  agent_type: 200,
  prompt: MAX_PROMPT,
}

/** tool_input keys that describe a call in a few words, most telling first. */
const TOOL_DETAIL_KEYS = [
  'command',
  'file_path',
  'notebook_path',
  'path',
  'url',
  'pattern',
  'query',
  'description',
]

/** Events whose tool call is worth describing: asked for, starting, or refused. */
const TOOL_DETAIL_EVENTS = new Set(['PermissionRequest', 'PreToolUse', 'PermissionDenied'])

function cap(value, max) {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value
}

function naviHome() {
  const fromEnv = process.env.NAVI_HOME
  const flag = process.argv.indexOf('--navi-home')
  const baked = flag >= 0 ? process.argv[flag + 1] : undefined
  const dir = fromEnv || baked || path.join(os.homedir(), '.navi')
  if (dir === '~') return os.homedir()
  return dir.startsWith('~/') ? path.join(os.homedir(), dir.slice(2)) : dir
}

/** A few words about what a tool call wants to do: the command, the file, the URL. */
function toolDetail(input) {
  if (!input || typeof input !== 'object') return undefined
  for (const key of TOOL_DETAIL_KEYS) {
    const value = input[key]
    if (typeof value !== 'string' || value.trim() === '') continue
    const lines = value.trim().split('\n')
    return cap(lines.length > 1 ? `${lines[0]} …` : lines[0], MAX_TOOL_DETAIL)
  }
  return undefined
}

/** Field 4 of /proc/<pid>/stat is the parent pid; comm (field 2) may contain spaces and parens. */
function readProc(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const close = stat.lastIndexOf(')')
  const comm = stat.slice(stat.indexOf('(') + 1, close)
  const ppid = Number(stat.slice(close + 2).split(' ')[1])
  return { comm, ppid }
}

function isClaudeCmdline(pid) {
  const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2)
  return argv.some(
    (arg) => path.basename(arg) === 'claude' || arg.includes('@anthropic-ai/claude-code/'),
  )
}

/**
 * The claude process that runs this hook: the nearest ancestor named claude (the hook may run
 * through a shell). Linux only, best effort; null when unsure.
 */
function findClaudePid() {
  if (process.platform !== 'linux') return null
  try {
    let pid = process.ppid
    for (let depth = 0; depth < MAX_ANCESTORS && pid > 1; depth += 1) {
      const { comm, ppid } = readProc(pid)
      if (comm === 'claude' || isClaudeCmdline(pid)) return pid
      pid = ppid
    }
  } catch {
    // An ancestor exited while we looked, or /proc is not readable.
  }
  return null
}

function keptFields(payload) {
  const record = {}
  for (const [key, max] of Object.entries(KEPT_FIELDS)) {
    const value = payload[key]
    if (typeof value === 'string') record[key] = cap(value, max)
    else if (typeof value === 'number' && key === 'task_id') record[key] = String(value)
  }
  if (TOOL_DETAIL_EVENTS.has(record.hook_event_name)) {
    const detail = toolDetail(payload.tool_input)
    if (detail) record.tool_detail = detail
  }
  return record
}

/**
 * When a payload was too big to keep, the small top-level fields that precede the big ones
 * (Claude Code writes session_id, transcript_path, cwd, hook_event_name first) are still read.
 */
function salvageHead(head) {
  const bigField = head.search(
    /"(tool_input|tool_response|tool_calls|prompt|last_assistant_message)"\s*:/,
  )
  const text = bigField >= 0 ? head.slice(0, bigField) : head
  const payload = {}
  for (const key of Object.keys(KEPT_FIELDS)) {
    const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text)
    if (match) payload[key] = JSON.parse(`"${match[1]}"`)
  }
  return payload
}

function parsePayload(raw, truncated) {
  if (truncated) return { ...salvageHead(raw.toString('utf8', 0, 64 * 1024)), truncated: true }
  const payload = JSON.parse(raw.toString('utf8'))
  return payload && typeof payload === 'object' && !Array.isArray(payload) ? payload : null
}

function rotateIfLarge(inbox) {
  try {
    const stat = fs.lstatSync(inbox)
    if (stat.isFile() && stat.size > ROTATE_AT_BYTES) fs.renameSync(inbox, `${inbox}.1`)
  } catch {
    // No inbox yet, or another handler rotated it first.
  }
}

/**
 * Non-blocking: opening a FIFO for writing would wait for a reader for ever (and stall a synchronous
 * hook, so the agent); with O_NONBLOCK it fails at once (ENXIO) or opens, and fstat then refuses
 * anything that is not a regular file.
 */
const APPEND_FLAGS =
  fs.constants.O_WRONLY |
  fs.constants.O_APPEND |
  fs.constants.O_CREAT |
  (fs.constants.O_NONBLOCK ?? 0)

function appendOnce(file, line) {
  const fd = fs.openSync(file, APPEND_FLAGS, 0o600)
  try {
    if (!fs.fstatSync(fd).isFile())
      throw new Error(`${file} is not a regular file; nothing written`)
    fs.writeSync(fd, line)
  } finally {
    fs.closeSync(fd)
  }
}

function append(file, line) {
  try {
    appendOnce(file, line)
  } catch (error) {
    if (error?.code !== 'ENOENT') throw error
    fs.mkdirSync(path.dirname(file), { recursive: true })
    appendOnce(file, line)
  }
}

function logError(hooksDir, error) {
  try {
    const file = path.join(hooksDir, 'errors.log')
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0
    if (size > MAX_ERROR_LOG_BYTES) return
    const message = error instanceof Error ? error.stack || error.message : String(error)
    appendOnce(file, `${new Date().toISOString()} ${cap(message, 2000)}\n`)
  } catch {
    // Nowhere to report: stay silent.
  }
}

function record(raw, truncated) {
  let payload
  try {
    payload = parsePayload(raw, truncated)
  } catch {
    return // Not JSON: nothing to record.
  }
  if (!payload) return
  const fields = keptFields(payload)
  if (!fields.hook_event_name || !fields.session_id) return
  const hooksDir = path.join(naviHome(), 'hooks')
  try {
    const line = JSON.stringify({
      ...fields,
      ...(payload.truncated ? { truncated: true } : {}),
      // When Claude Code spawned the hook: background hooks may append out of order, and the
      // reader orders by this.
      received_at: new Date(Math.round(performance.timeOrigin)).toISOString(),
      claude_pid: findClaudePid(),
    })
    const inbox = path.join(hooksDir, 'events.jsonl')
    rotateIfLarge(inbox)
    append(inbox, `${line}\n`)
  } catch (error) {
    logError(hooksDir, error)
  }
}

function main() {
  const chunks = []
  let size = 0
  let truncated = false
  let done = false
  const finish = () => {
    if (done) return
    done = true
    try {
      record(Buffer.concat(chunks), truncated)
    } catch {
      // Never fail the agent.
    }
    process.exit(0)
  }
  process.on('uncaughtException', () => process.exit(0))
  process.stdin.on('data', (chunk) => {
    // Keep draining past the cap so Claude Code's write never blocks on a full pipe.
    if (size + chunk.length <= MAX_STDIN_BYTES) chunks.push(chunk)
    else truncated = true
    size += chunk.length
  })
  process.stdin.on('end', finish)
  process.stdin.on('error', finish)
  setTimeout(finish, STDIN_TIMEOUT_MS)
}

main()
