import { homedir } from 'node:os'
import { join } from 'node:path'

/** Every directory Navi reads or writes. Tests and the CLI build one from the environment. */
export interface EnginePaths {
  /** `$NAVI_HOME`, default `~/.navi`. */
  naviHome: string
  /** `$CLAUDE_CONFIG_DIR`, default `~/.claude`. */
  claudeConfigDir: string
  /** `$CODEX_HOME`, default `~/.codex`. */
  codexHome: string
}

export function resolvePaths(env: NodeJS.ProcessEnv = process.env, home = homedir()): EnginePaths {
  return {
    naviHome: expandHome(env.NAVI_HOME || join(home, '.navi'), home),
    claudeConfigDir: expandHome(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), home),
    codexHome: expandHome(env.CODEX_HOME || join(home, '.codex'), home),
  }
}

export function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home
  if (path.startsWith('~/')) return join(home, path.slice(2))
  return path
}

/** The PM's memory files under its memory folder (the PM is told these paths in its prompt). */
export const pmMemoryFiles = (memoryDir: string) => ({
  shortTerm: join(memoryDir, 'short-term.md'),
  longTerm: join(memoryDir, 'long-term.md'),
  projectsDir: join(memoryDir, 'projects'),
})

/** Files under the three roots, named once. */
const filesUnder = (p: EnginePaths) => ({
  config: join(p.naviHome, 'config.yaml'),
  /** What the app's Settings change; its override keys win over config.yaml. */
  settings: join(p.naviHome, 'settings.json'),
  pmDir: join(p.naviHome, 'pm'),
  eventLog: join(p.naviHome, 'pm', 'events.jsonl'),
  snapshotsDir: join(p.naviHome, 'pm', 'snapshots'),
  memoryDir: join(p.naviHome, 'pm', 'memory'),
  memoryVersionsDir: join(p.naviHome, 'pm', 'memory-versions'),
  systemPrompt: join(p.naviHome, 'pm', 'system-prompt.md'),
  outputSchema: join(p.naviHome, 'pm', 'output-schema.json'),
  /** The system prompt of a question (`navi ask`), and the last questions with their answers. */
  askPrompt: join(p.naviHome, 'pm', 'ask-prompt.md'),
  askHistory: join(p.naviHome, 'pm', 'asks.jsonl'),
  /** Attention items the user dismissed or snoozed (pm/core/dismissals.ts). */
  dismissed: join(p.naviHome, 'pm', 'dismissed.json'),
  /** One line per project and day, 90 days (pm/core/digests.ts). */
  digests: join(p.naviHome, 'pm', 'digests.jsonl'),
  lastOutput: join(p.naviHome, 'pm', 'last-output.json'),
  pmSessionId: join(p.naviHome, 'pm', 'session_id'),
  usageLog: join(p.naviHome, 'pm', 'usage.jsonl'),
  /** Indexes that let a restarted engine resume transcripts instead of re-reading them. */
  cacheDir: join(p.naviHome, 'cache'),
  hooksDir: join(p.naviHome, 'hooks'),
  hookInbox: join(p.naviHome, 'hooks', 'events.jsonl'),
  /** One file per hook event, written by the handler; drained into the inbox (adapters/hook-spool.ts). */
  hookSpool: join(p.naviHome, 'hooks', 'spool'),
  hookHandler: join(p.naviHome, 'bin', 'navi-hook.sh'),
  /** Where a running Navi answers the read-only commands (runtime/query-socket.ts). */
  runDir: join(p.naviHome, 'run'),
  claudeProjects: join(p.claudeConfigDir, 'projects'),
  claudeSessions: join(p.claudeConfigDir, 'sessions'),
  claudeTasks: join(p.claudeConfigDir, 'tasks'),
  claudeSettings: join(p.claudeConfigDir, 'settings.json'),
  codexSessions: join(p.codexHome, 'sessions'),
  /** Delegated tasks: `<id>.json` (the record) and `<id>.log.jsonl` (its agent's stream and Navi's notes). */
  tasksDir: join(p.naviHome, 'tasks'),
})

export type NaviFiles = Readonly<ReturnType<typeof filesUnder>>

/** The files of each paths object, with the roots they were made from (a changed root makes them again). */
const namedFiles = new WeakMap<EnginePaths, { roots: string; files: NaviFiles }>()

/**
 * Every file Navi reads or writes under `p`'s roots. Made once per paths object: a running engine asks on
 * every watcher event and cycle, and the 35 joins each time were a tenth of what an append allocated.
 */
export function naviFiles(p: EnginePaths): NaviFiles {
  const roots = `${p.naviHome}\0${p.claudeConfigDir}\0${p.codexHome}`
  const known = namedFiles.get(p)
  if (known?.roots === roots) return known.files
  const files = Object.freeze(filesUnder(p))
  namedFiles.set(p, { roots, files })
  return files
}
