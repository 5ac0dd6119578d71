import { describe, expect, it } from 'vitest'
import { paneOfTmuxField } from '../../electron/engine/adapters/claude-live-sessions.ts'
import {
  findPaneForPid,
  parseProcStatParentPid,
  parseTmuxPanes,
  type TmuxPane,
} from '../../electron/engine/core/tmux-parse.ts'

describe('parseTmuxPanes', () => {
  it('reads pane id, pid, window and a session name with spaces or tabs', () => {
    const text = '%0\t1200\t0\twork\n%5\t1300\t2\tmy\tsession\n'
    expect(parseTmuxPanes(text)).toEqual([
      { paneId: '%0', panePid: 1200, session: 'work', window: 0 },
      { paneId: '%5', panePid: 1300, session: 'my\tsession', window: 2 },
    ])
  })

  it('skips malformed lines', () => {
    expect(parseTmuxPanes('garbage\n%1\tx\t0\ts\n%2\t12\t\ts\n%3\t0\t1\ts\n')).toEqual([])
  })
})

describe('parseProcStatParentPid', () => {
  it('reads field 4 after the last parenthesis, whatever the command name holds', () => {
    expect(parseProcStatParentPid('4242 (bash) S 4200 4242 4242 0 -1')).toBe(4200)
    expect(parseProcStatParentPid('77 (evil) S 1 (x)) R 31 77 77')).toBe(31)
    expect(parseProcStatParentPid('9 (a b c) S 8 9 9')).toBe(8)
  })

  it('is null for text that is not a stat line', () => {
    expect(parseProcStatParentPid('')).toBeNull()
    expect(parseProcStatParentPid('12 (x) S')).toBeNull()
  })
})

describe('findPaneForPid', () => {
  const panes: TmuxPane[] = [
    { paneId: '%1', panePid: 100, session: 's', window: 0 },
    { paneId: '%2', panePid: 200, session: 's', window: 1 },
  ]
  const tree = new Map<number, number>([
    [300, 250],
    [250, 200],
    [200, 1],
    [400, 1],
    [500, 501],
    [501, 500],
  ])
  const parentOf = (pid: number) => tree.get(pid) ?? null

  it('walks up the process tree to the pane pid', () => {
    expect(findPaneForPid(300, panes, parentOf)?.paneId).toBe('%2')
    expect(findPaneForPid(100, panes, parentOf)?.paneId).toBe('%1')
  })

  it('is null outside tmux, on an unknown parent and on a cycle', () => {
    expect(findPaneForPid(400, panes, parentOf)).toBeNull()
    expect(findPaneForPid(999, panes, parentOf)).toBeNull()
    expect(findPaneForPid(500, panes, parentOf)).toBeNull()
    expect(findPaneForPid(300, [], parentOf)).toBeNull()
  })
})

describe('the live file tmux field (2.1.330)', () => {
  it('gives the pane id', () => {
    expect(paneOfTmuxField('probe-tuiB:@0.%0')).toBe('%0')
    expect(paneOfTmuxField('work:@12.%345')).toBe('%345')
    expect(paneOfTmuxField('no pane here')).toBeNull()
    expect(paneOfTmuxField(null)).toBeNull()
  })
})
