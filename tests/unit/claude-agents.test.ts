import { describe, expect, it } from 'vitest'
import { parseAgentsJson } from '../../electron/engine/adapters/claude-agents.ts'

describe('parseAgentsJson', () => {
  it('turns `claude agents --json` (2.1.330 shape) into live records, skipping what is not a session', () => {
    const stdout = JSON.stringify([
      {
        pid: process.pid,
        cwd: '/home/user/proj',
        kind: 'interactive',
        startedAt: 1795498435115,
        sessionId: '9521e7db-9421-4ddd-a465-399a6ab1c963',
        name: 'proj-98',
        status: 'waiting',
        waitingFor: 'permission prompt',
      },
      { pid: 'not a pid', sessionId: 'x' },
      { cwd: '/no/session' },
    ])
    const records = parseAgentsJson(stdout, Date.parse('2026-11-24T00:00:00Z'))
    expect(records).toEqual([
      {
        pid: process.pid,
        sessionId: '9521e7db-9421-4ddd-a465-399a6ab1c963',
        cwd: '/home/user/proj',
        startedAt: 1795498435115,
        procStart: null,
        name: 'proj-98',
        entrypoint: null,
        status: 'waiting',
        waitingFor: 'permission prompt',
        statusUpdatedAt: null,
        alive: true,
        file: 'claude agents --json',
      },
    ])
  })

  it('anything but a JSON array is no sessions', () => {
    expect(parseAgentsJson('', 0)).toEqual([])
    expect(parseAgentsJson('{"pid":1}', 0)).toEqual([])
    expect(parseAgentsJson("'claude agents' requires an interactive terminal", 0)).toEqual([])
  })
})
