/** When a computing command starts a background runtime, and when that runtime stops (cli/background.ts). */
import { describe, expect, it } from 'vitest'
import { backgroundDecision, reasonToStop } from '../../electron/cli/background.ts'
import { parseConfig } from '../../electron/engine/core/config-yaml.ts'

const usual: Parameters<typeof backgroundDecision>[0] = {
  idleMs: 1_800_000,
  env: {},
  socketPath: '/h/.navi/run/query.sock',
  built: true,
}

describe('backgroundDecision', () => {
  it('starts one by default', () => {
    expect(backgroundDecision(usual)).toEqual({ start: true })
  })

  it('says why it does not', () => {
    const why = (over: Partial<typeof usual>) => {
      const decision = backgroundDecision({ ...usual, ...over })
      return decision.start ? null : decision.why
    }
    expect(why({ env: { NAVI_BACKGROUND: '0' } })).toBe('NAVI_BACKGROUND=0')
    expect(why({ env: { CI: 'true' } })).toBe('CI is set')
    expect(why({ env: { CI: '1' } })).toBe('CI is set')
    expect(why({ idleMs: 0 })).toBe('cli.background is 0')
    expect(why({ socketPath: null })).toBe('no socket path fits this home')
    expect(why({ built: false })).toBe('run from the sources')
  })

  it('CI set to false, or NAVI_BACKGROUND=1 under CI, starts one', () => {
    expect(backgroundDecision({ ...usual, env: { CI: 'false' } })).toEqual({ start: true })
    expect(backgroundDecision({ ...usual, env: { CI: '' } })).toEqual({ start: true })
    expect(backgroundDecision({ ...usual, env: { CI: 'true', NAVI_BACKGROUND: '1' } })).toEqual({
      start: true,
    })
  })
})

describe('reasonToStop', () => {
  const running = { idleForMs: 1000, idleMs: 60_000, homeExists: true, buildChanged: false }
  it('keeps running while asked within its idle time', () => {
    expect(reasonToStop(running)).toBeNull()
  })
  it('stops when idle, its home gone, its build replaced, or turned off', () => {
    expect(reasonToStop({ ...running, idleForMs: 60_000 })).toBe('no command asked for 60 s')
    expect(reasonToStop({ ...running, homeExists: false })).toBe('its home is gone')
    expect(reasonToStop({ ...running, buildChanged: true })).toBe('Navi was rebuilt or updated')
    expect(reasonToStop({ ...running, idleMs: 0 })).toBe('cli.background is now 0')
  })
})

describe('cli.background in config.yaml', () => {
  const idle = (text: string) => parseConfig(text, '/h/.navi/config.yaml', '/h')
  it('is 30 minutes by default, a duration when set, and 0 turns it off', () => {
    expect(idle('').config.cli.backgroundIdleMs).toBe(1_800_000)
    expect(idle('cli:\n  background: 2h\n').config.cli.backgroundIdleMs).toBe(7_200_000)
    expect(idle('cli:\n  background: 0\n').config.cli.backgroundIdleMs).toBe(0)
    expect(idle("cli:\n  background: '0s'\n").config.cli.backgroundIdleMs).toBe(0)
  })
  it('refuses what is not a duration', () => {
    const parsed = idle('cli:\n  background: soon\n')
    expect(parsed.errors.map((e) => e.message).join(' ')).toMatch(/background/)
  })
})
