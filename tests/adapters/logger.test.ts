import { readFile, stat } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createLogger, logFile, recentLogErrors } from '../../electron/runtime/logger.ts'
import { useTempPaths } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'

const temp = useTempPaths('navi-log-')

describe('createLogger', () => {
  it('writes scoped, levelled lines to $NAVI_HOME/logs/navi.log, inert, and doctor reads the errors back', async () => {
    const log = createLogger(temp.paths.naviHome)
    expect(log.file).toBe(logFile(temp.paths.naviHome))
    log.scope('engine').info('cycle done')
    log.scope('pm').error('PM run failed: \u202eevil\u202c \x1b[31mred\x1b[0m')
    const text = await waitUntil(
      async () => {
        const t = await readFile(log.file, 'utf8').catch(() => '')
        return t.includes('PM run failed') ? t : null
      },
      10_000,
      'the log lines',
    )
    expect(text).toMatch(/\[info\] +\(engine\) +cycle done/)
    expect(text).toMatch(/\[error\] +\(pm\) +PM run failed/)
    expect(text).not.toMatch(/[\u202e\u202c]/)
    expect(text).not.toContain(String.fromCharCode(27))
    const errors = await recentLogErrors(temp.paths.naviHome)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/\(pm\) +PM run failed/)
  })

  it('no log yet is no error; a log past 1 MiB is rotated, not grown', async () => {
    expect(await recentLogErrors(temp.paths.naviHome)).toEqual([])
    const log = createLogger(temp.paths.naviHome).scope('engine')
    const line = 'x'.repeat(1500)
    for (let i = 0; i < 1000; i++) log.warn(line)
    await waitUntil(
      async () => (await stat(`${temp.paths.naviHome}/logs/navi.old.log`).catch(() => null)) !== null,
      10_000,
      'the rotated log',
    )
    expect((await stat(logFile(temp.paths.naviHome))).size).toBeLessThanOrEqual(1024 * 1024 + 4096)
  })
})
