/**
 * Navi's log: `$NAVI_HOME/logs/navi.log`, one line per entry (`[time] [level] (scope) message`), rotated
 * to `navi.old.log` past 1 MiB, through electron-log (its Node entry, so the CLI, `navi serve` and the
 * tray write the same file the same way). Messages are made inert before they are written: an error can
 * quote a path or a reason that came from an untrusted file.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import electronLog from 'electron-log/node.js'
import type { Log } from '../../shared/log.ts'
import { inertLine } from '../../shared/text.ts'

/** The parts that log, each under its own name. */
export type LogScope = 'engine' | 'pm' | 'runtime' | 'settings' | 'serve' | 'tray' | 'cli'

export interface NaviLogger {
  /** Where the log is written. */
  readonly file: string
  scope(name: LogScope): Log
}

const MAX_BYTES = 1024 * 1024
const MAX_MESSAGE = 2000

export const logFile = (naviHome: string): string => join(naviHome, 'logs', 'navi.log')

/** The log of the Navi whose home is `naviHome` (each home its own file, so tests never share one). */
export function createLogger(naviHome: string): NaviLogger {
  const file = logFile(naviHome)
  const logger = electronLog.create({ logId: `navi:${file}` })
  logger.transports.file.resolvePathFn = () => file
  logger.transports.file.maxSize = MAX_BYTES
  logger.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {scope} {text}'
  // The faces decide what reaches the terminal; the log is a file.
  logger.transports.console.level = false
  const clean = (message: string) => inertLine(message).slice(0, MAX_MESSAGE)
  return {
    file,
    scope(name) {
      const scoped = logger.scope(name)
      return {
        error: (message) => scoped.error(clean(message)),
        warn: (message) => scoped.warn(clean(message)),
        info: (message) => scoped.info(clean(message)),
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
