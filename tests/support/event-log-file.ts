/**
 * A fresh `pm/events.jsonl` path per test under a temp dir, and event logs opened on it with a fixed
 * clock, all closed and removed after the test.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import {
  createEventLog,
  type EventLog,
  type EventLogOptions,
} from '../../electron/engine/adapters/event-log.ts'

export function useEventLogFile(
  prefix: string,
  now: number,
): {
  dir: string
  file: string
  open: (clock?: () => number, options?: Omit<EventLogOptions, 'clock'>) => EventLog
} {
  const opened: EventLog[] = []
  const ctx = {
    dir: '',
    file: '',
    open: (clock: () => number = () => now, options: Omit<EventLogOptions, 'clock'> = {}) => {
      const log = createEventLog(ctx.file, { ...options, clock })
      opened.push(log)
      return log
    },
  }
  beforeEach(async () => {
    ctx.dir = await mkdtemp(join(tmpdir(), prefix))
    ctx.file = join(ctx.dir, 'pm', 'events.jsonl')
  })
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((log) => log.close()))
    await rm(ctx.dir, { recursive: true, force: true })
  })
  return ctx
}
