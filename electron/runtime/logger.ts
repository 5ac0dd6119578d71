/**
 * Navi's log: `$NAVI_HOME/logs/navi.log`, one line per entry (`[time] [level] (scope) message`), rotated
 * to `navi.old.log` past 1 MiB, through electron-log (its Node entry, so the CLI, `navi serve` and the
 * tray write the same file the same way). Messages are made inert before they are written: an error can
 * quote a path or a reason that came from an untrusted file.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Log } from '../../shared/log.ts'
import { inertLine } from '../../shared/text.ts'

/** The parts that log, each under its own name. */
export type LogScope =
  | 'engine'
  | 'pm'
  | 'tasks'
  | 'runtime'
  | 'settings'
  | 'serve'
  | 'tray'
  | 'cli'
  | 'background'

export interface NaviLogger {
  /** Where the log is written. */
  readonly file: string
  scope(name: LogScope): Log
  /** Resolves once every entry made so far is written (a runtime that stops waits for it). */
  flush(): Promise<void>
}

const MAX_BYTES = 1024 * 1024
const MAX_MESSAGE = 2000

export const logFile = (naviHome: string): string => join(naviHome, 'logs', 'navi.log')

type Level = 'error' | 'warn' | 'info'

/**
 * The log of the Navi whose home is `naviHome` (each home its own file, so tests never share one).
 * electron-log is loaded on the first entry, not before: most runs of a CLI command write none, and
 * loading it was a tenth of `navi status`. Entries keep their order.
 */
export function createLogger(naviHome: string): NaviLogger {
  const file = logFile(naviHome)
  type Scoped = Record<Level, (message: string) => void>
  let loading: Promise<(scope: LogScope) => Scoped> | null = null
  const load = () =>
    (loading ??= import('electron-log/node.js').then(({ default: electronLog }) => {
      const logger = electronLog.create({ logId: `navi:${file}` })
      logger.transports.file.resolvePathFn = () => file
      logger.transports.file.maxSize = MAX_BYTES
      logger.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {scope} {text}'
      // The faces decide what reaches the terminal; the log is a file.
      logger.transports.console.level = false
      const scopes = new Map<LogScope, Scoped>()
      return (scope: LogScope) => {
        let scoped = scopes.get(scope)
        if (!scoped) {
          scoped = logger.scope(scope)
          scopes.set(scope, scoped)
        }
        return scoped
      }
    }))
  /** Entries in the order they were made, whatever the loading takes. */
  let queue: Promise<void> = Promise.resolve()
  const write = (scope: LogScope, level: Level, message: string) => {
    const text = inertLine(message).slice(0, MAX_MESSAGE)
    queue = queue
      .then(load)
      .then((scoped) => scoped(scope)[level](text))
      .catch((error: unknown) => {
        // The log is where failures go; when it cannot be written, stderr is what is left.
        process.stderr.write(`navi: cannot write the log ${file}: ${String(error)}\n`)
      })
  }
  return {
    file,
    flush: () => queue,
    scope(name) {
      return {
        error: (message) => write(name, 'error', message),
        warn: (message) => write(name, 'warn', message),
        info: (message) => write(name, 'info', message),
      }
    },
  }
}

/** The newest `max` error lines of the log (for `navi doctor`), oldest first; none when there is no log. */
export async function recentLogErrors(naviHome: string, max = 5): Promise<string[]> {
  const text = await readFile(logFile(naviHome), 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  })
  return text
    .split('\n')
    .filter((line) => line.includes('] [error] '))
    .slice(-max)
    .map(inertLine)
}
