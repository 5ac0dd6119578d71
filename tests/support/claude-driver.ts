/**
 * Drives the real `claude` binary against the scripted API (`scripted-api.ts`). Typical test:
 * `const api = await startScriptedApi()`, `const env = await createClaudeEnv({ apiUrl: api.url })`,
 * `api.enqueue(toolUse('Write', {...}), text('done'))`, then
 * `const run = await runClaudePrint({ cwd: project, env, prompt: 'go', args: ['--output-format', 'json'], timeoutMs: 30_000 })`
 * and assert on `run.json` (the result envelope), on files the CLI wrote (`transcriptPath`,
 * `liveSessionPath`, `taskListDir`) and on `api.requests`. For the interactive TUI use
 * `startClaudeInTmux` (re-exported from `claude-tmux.ts`). Clean up with `disposeClaudeEnv(env)` and
 * `api.close()`. The project dir should be a real path (`realpath`), because the CLI records
 * `process.cwd()` and encodes it into the transcript folder name.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { claudeBinary, type ClaudeEnv } from './claude-env.ts'
import { parseJson, parseJsonLines, runHermetic, type HermeticRunResult } from './hermetic-env.ts'

export * from './claude-env.ts'
export * from './claude-tmux.ts'

export interface ClaudePrintOptions {
  cwd: string
  env: ClaudeEnv
  prompt: string
  /** Extra arguments after `-p <prompt>`, e.g. `['--output-format', 'json']`. */
  args?: string[]
  /** The process is killed after this long (the result then has `timedOut: true`). */
  timeoutMs: number
  /** Written to stdin (for `--input-format stream-json`); stdin is closed/empty otherwise. */
  input?: string
}

export interface ClaudePrintResult extends HermeticRunResult {
  /** stdout parsed as one JSON value (`--output-format json`), if it parses. */
  json?: unknown
  /** Each non-empty stdout line parsed as JSON (`--output-format stream-json`); unparsable lines skipped. */
  jsonLines: unknown[]
}

/** Runs `claude -p <prompt> ...args` in `cwd` with only the hermetic environment plus `env`. */
export async function runClaudePrint(opts: ClaudePrintOptions): Promise<ClaudePrintResult> {
  const result = await runHermetic(claudeBinary(), ['-p', opts.prompt, ...(opts.args ?? [])], {
    cwd: opts.cwd,
    env: { ...opts.env, DISABLE_AUTOUPDATER: '1' },
    timeoutMs: opts.timeoutMs,
    input: opts.input,
  })
  return {
    ...result,
    json: parseJson(result.stdout.trim()),
    jsonLines: parseJsonLines(result.stdout),
  }
}

/**
 * The transcript folder name for a cwd: every character outside `[A-Za-z0-9]` becomes `-`
 * (reference, section 8.1). Names over 200 characters get a hash suffix the CLI computes; this
 * helper refuses them rather than guess.
 */
export function encodeProjectDir(cwd: string): string {
  const encoded = cwd.replace(/[^A-Za-z0-9]/g, '-')
  if (encoded.length > 200) throw new Error(`encoded cwd is over 200 characters: ${cwd}`)
  return encoded
}

/** `$CLAUDE_CONFIG_DIR/projects/<encoded cwd>/<sessionId>.jsonl`. */
export function transcriptPath(configDir: string, cwd: string, sessionId: string): string {
  return join(configDir, 'projects', encodeProjectDir(cwd), `${sessionId}.jsonl`)
}

/** `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` (exists while the CLI runs). */
export function liveSessionPath(configDir: string, pid: number): string {
  return join(configDir, 'sessions', `${String(pid)}.json`)
}

/** `$CLAUDE_CONFIG_DIR/tasks/<listId>/` (the list id is the session id by default). */
export function taskListDir(configDir: string, listId: string): string {
  return join(configDir, 'tasks', listId)
}

/** Parses a JSONL file; lines that are not JSON are skipped. */
export async function readJsonl(file: string): Promise<unknown[]> {
  return parseJsonLines(await readFile(file, 'utf8'))
}

/** Parses a JSON file, or `undefined` when it is missing or not (yet) valid JSON. */
export async function readJsonFile(file: string): Promise<unknown> {
  try {
    return parseJson(await readFile(file, 'utf8'))
  } catch {
    return undefined
  }
}

/** Every `<n>.json` task file of a task list, parsed and sorted by file name. */
export async function readTaskFiles(
  configDir: string,
  listId: string,
): Promise<{ file: string; task: unknown }[]> {
  const dir = taskListDir(configDir, listId)
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()
  return Promise.all(
    names.map(async (file) => ({ file, task: await readJsonFile(join(dir, file)) })),
  )
}
