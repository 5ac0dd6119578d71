/**
 * One case of the bad-input table: a fresh NAVI_HOME / CLAUDE_CONFIG_DIR / CODEX_HOME holding a healthy
 * project (a registered git repository with a real Claude transcript in it), plus helpers a row uses to
 * plant its bad input. Every path a row touches is inside the case's own temp directory.
 */
import { execFileSync } from 'node:child_process'
import {
  appendFile,
  copyFile,
  mkdir,
  mkdtemp,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createRandom } from '../seeded-random.ts'

/** What every case starts from: a real repository and a real transcript of a session in it. */
export interface HealthyBase {
  repoDir: string
  headSha: string
  sessionId: string
  /** The transcript claude wrote, copied into each case. */
  transcript: string
}

export interface CaseContext {
  root: string
  naviHome: string
  claudeConfigDir: string
  codexHome: string
  healthy: HealthyBase
  /** A directory outside any repository, for sessions a row invents. */
  scratch: string
  /** The healthy session's transcript in this case. */
  healthyTranscript: string
  /** Writes `data` (created with its parents); returns the path. */
  write(path: string, data: string | Buffer): Promise<string>
  json(path: string, value: unknown): Promise<string>
  fifo(path: string): Promise<string>
  /** A symlink at `path` to `target` (e.g. `/dev/zero`). */
  link(path: string, target: string): Promise<string>
  /** A sparse file of `bytes` zeros: instant to make, costly to read. */
  sparse(path: string, bytes: number): Promise<string>
  /** `projects/<encoded cwd>/<id>.jsonl` with `lines` (objects are JSON-encoded, strings written as is). */
  transcript(lines: (object | string)[], opts?: { id?: string; cwd?: string }): Promise<string>
  /** `sessions/<name>`: a live-session file. */
  live(value: unknown, name?: string): Promise<string>
  /** A Codex rollout for today. */
  rollout(lines: (object | string)[]): Promise<string>
  /** Appends `text` to the case's config.yaml (which registers the healthy repository). */
  config(text: string): Promise<string>
  paths: {
    config: string
    settings: string
    eventLog: string
    snapshots: string
    meta: string
    hookInbox: string
    transcriptIndex: string
    rolloutIndex: string
    claudeSettings: string
    liveDir: string
    tasksDir: string
  }
}

export const SESSION_ID = 'bad00000-0000-4000-8000-000000000001'

/** Claude's transcript folder name for a cwd (agent-cli-formats.md §8.1). */
export const encodeCwd = (cwd: string): string => cwd.replace(/[^A-Za-z0-9]/g, '-')

export async function createCaseContext(healthy: HealthyBase): Promise<CaseContext> {
  const root = await mkdtemp(join(tmpdir(), 'navi-bad-'))
  const naviHome = join(root, 'navi')
  const claudeConfigDir = join(root, 'claude')
  const codexHome = join(root, 'codex')
  const scratch = join(root, 'scratch')
  for (const dir of [naviHome, claudeConfigDir, codexHome, scratch]) await mkdir(dir)

  const write = async (path: string, data: string | Buffer): Promise<string> => {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, data)
    return path
  }
  const lineText = (line: object | string) =>
    typeof line === 'string' ? line : JSON.stringify(line)
  const projects = join(claudeConfigDir, 'projects')
  const healthyTranscript = join(projects, encodeCwd(healthy.repoDir), `${healthy.sessionId}.jsonl`)
  await mkdir(dirname(healthyTranscript), { recursive: true })
  await copyFile(healthy.transcript, healthyTranscript)
  const config = join(naviHome, 'config.yaml')
  await write(config, `projects:\n  - path: ${healthy.repoDir}\n    name: healthy\n`)

  const ctx: CaseContext = {
    root,
    naviHome,
    claudeConfigDir,
    codexHome,
    healthy,
    scratch,
    healthyTranscript,
    write,
    json: (path, value) => write(path, JSON.stringify(value)),
    async fifo(path) {
      await mkdir(dirname(path), { recursive: true })
      execFileSync('mkfifo', [path])
      return path
    },
    async link(path, target) {
      await mkdir(dirname(path), { recursive: true })
      await symlink(target, path)
      return path
    },
    async sparse(path, bytes) {
      await write(path, '')
      await truncate(path, bytes)
      return path
    },
    transcript: (lines, opts = {}) =>
      write(
        join(projects, encodeCwd(opts.cwd ?? scratch), `${opts.id ?? SESSION_ID}.jsonl`),
        lines.map((line) => `${lineText(line)}\n`).join(''),
      ),
    live: (value, name = '4242.json') =>
      write(
        join(claudeConfigDir, 'sessions', name),
        typeof value === 'string' ? value : JSON.stringify(value),
      ),
    rollout: (lines) =>
      write(
        join(
          codexHome,
          'sessions',
          '2026',
          '11',
          '24',
          `rollout-2026-11-24T00-00-00-${SESSION_ID}.jsonl`,
        ),
        lines.map((line) => `${lineText(line)}\n`).join(''),
      ),
    config: async (text) => {
      await appendFile(config, text)
      return config
    },
    paths: {
      config,
      settings: join(naviHome, 'settings.json'),
      eventLog: join(naviHome, 'pm', 'events.jsonl'),
      snapshots: join(naviHome, 'pm', 'snapshots'),
      meta: join(naviHome, 'pm', 'snapshots', 'meta.json'),
      hookInbox: join(naviHome, 'hooks', 'events.jsonl'),
      transcriptIndex: join(naviHome, 'cache', 'claude-transcripts.json'),
      rolloutIndex: join(naviHome, 'cache', 'codex-rollouts.json'),
      claudeSettings: join(claudeConfigDir, 'settings.json'),
      liveDir: join(claudeConfigDir, 'sessions'),
      tasksDir: join(claudeConfigDir, 'tasks'),
    },
  }
  return ctx
}

/** Random bytes that are not UTF-8, JSON or text, the same for every run of a row. */
export function garbage(bytes: number, seed: number): Buffer {
  const random = createRandom(seed)
  return Buffer.from(Array.from({ length: bytes }, () => Math.floor(random() * 256)))
}
