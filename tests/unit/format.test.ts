import { describe, expect, it } from 'vitest'
import {
  clip,
  describeEvent,
  formatAgo,
  formatEvents,
  formatStatus,
} from '../../electron/cli/format.ts'
import { makeProject } from '../support/pm-events-fixture.ts'
import { makeSession } from '../support/session-fixture.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'

const NOW = Date.parse('2026-11-21T12:00:00Z')

describe('CLI formatting', () => {
  it('relative times', () => {
    expect(formatAgo(new Date(NOW - 5_000).toISOString(), NOW)).toBe('5s')
    expect(formatAgo(new Date(NOW - 47 * 60_000).toISOString(), NOW)).toBe('47m')
    expect(formatAgo(new Date(NOW - 3 * 86_400_000).toISOString(), NOW)).toBe('3d')
    expect(formatAgo(null, NOW)).toBe('-')
  })

  it('untrusted text cannot move the terminal cursor or spill onto other lines', () => {
    expect(clip('evil\u001b[2J\u001b[Hsubject\nsecond line', 200)).toBe(
      'evil [2J [Hsubject second line',
    )
    expect(clip('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`)
  })

  it('events read as one aligned line each', () => {
    const commit: EngineEvent = {
      id: '1',
      timestamp: '2026-11-21T11:58:00Z',
      type: 'commit',
      project: 'apollo',
      details: { sha: 'abcdef1234', message: 'implement resolver', branch: 'feat/x' },
    }
    const change: EngineEvent = {
      id: '2',
      timestamp: '2026-11-21T11:59:00Z',
      type: 'session_status_change',
      project: 'navi',
      details: {
        name: 'navi-7',
        from: 'working',
        to: 'needs_permission',
        reason: 'waiting for permission prompt',
      },
    }
    expect(describeEvent(commit)).toBe('commit abcdef1 on feat/x: implement resolver')
    expect(describeEvent(change)).toBe('navi-7 needs permission: waiting for permission prompt')
    const lines = formatEvents([commit, change]).split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]?.indexOf('commit')).toBe(lines[1]?.indexOf('navi-7'))
  })

  it('events print inert, each column as wide as its widest cell, hostile and empty fields too', () => {
    const hostile = 'fix\u001b[31m red\u202e\u0007 \n  next'
    const events: EngineEvent[] = [
      {
        id: '1',
        timestamp: '2026-11-21T11:58:00Z',
        type: 'commit',
        project: `apollo${hostile}`,
        details: { sha: 'abcdef1234', message: hostile, branch: '' },
      },
      {
        id: '2',
        timestamp: '2026-11-21T11:59:00Z',
        type: 'branch_created',
        project: 'a-project-name-far-longer-than-thirty-characters',
        details: { branch: '', sha: 'abcdef1234' },
      },
    ]
    const lines = formatEvents(events).split('\n')
    const invisible = (line: string) =>
      [...line].some((c) => {
        const code = c.charCodeAt(0)
        return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e)
      })
    for (const line of lines) {
      expect(invisible(line), line).toBe(false)
      expect(line).not.toMatch(/\s$/)
    }
    // The description column starts at one place; the long project is clipped to 30.
    expect(lines[0]?.indexOf('commit abcdef1')).toBe(lines[1]?.indexOf('branch'))
    expect(lines[1]).toContain('a-project-name-far-longer-tha\u2026')
    // An empty branch leaves no double space.
    expect(lines[1]).toMatch(/branch created$/)
  })

  it('a session in trouble gets a line with the reason, inert, under its session', () => {
    const trouble = {
      kind: 'failing_command' as const,
      reason: 'the same command failed 3 times in a row: npm test\u001b[2J',
      since: '2026-11-21T11:50:00Z',
    }
    const text = formatStatus(
      [
        makeProject({
          name: 'apollo',
          attention: 'needs_input',
          session_status: 'working',
          sessions: [makeSession({ id: 's1', name: 'fixer', status: 'working', trouble })],
        }),
      ],
      NOW,
    )
    expect(text.split('\n').slice(1)).toEqual([
      '    claude fixer: working',
      '      ! the same command failed 3 times in a row: npm test [2J',
    ])
    const asking = formatStatus(
      [
        makeProject({
          name: 'apollo',
          attention: 'needs_input',
          sessions: [
            makeSession({
              id: 's2',
              name: 'cleaner',
              status: 'needs_permission',
              status_reason: 'Permission needed: Bash (rm -rf build)',
              pending_request: {
                tool: 'Bash',
                detail: 'rm -rf build',
                description: 'Clean the build folder',
                since: null,
                request_id: null,
                input_digest: null,
                answer_until: null,
              },
            }),
          ],
        }),
      ],
      NOW,
    )
    expect(asking.split('\n').slice(1)).toEqual([
      '    claude cleaner: permission — Permission needed: Bash (rm -rf build)',
      '      asks: Clean the build folder',
    ])
    const event: EngineEvent = {
      id: '3',
      timestamp: '2026-11-21T11:59:00Z',
      type: 'session_trouble',
      project: 'apollo',
      session: 's1',
      details: { name: 'fixer', kind: 'stalled', reason: 'no progress for 12 min', since: null },
    }
    expect(describeEvent(event)).toBe('fixer: no progress for 12 min')
    const cleared: EngineEvent = {
      ...event,
      id: '4',
      type: 'session_trouble_cleared',
      details: { name: 'fixer', kind: 'stalled' },
    }
    expect(describeEvent(cleared)).toBe('fixer: no longer stalled')
  })
})
