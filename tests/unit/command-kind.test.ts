/** Which commands run until stopped (electron/cli/command-kind.ts): the launcher tunes V8 by it. */
import { describe, expect, it } from 'vitest'
import { commandOf, runsUntilStopped } from '../../electron/cli/command-kind.ts'

describe('command kind', () => {
  it.each([
    [['watch', '--json'], true],
    [['--json', 'serve', '--port', '0'], true],
    [['run', 'task-1'], true],
    [['status'], false],
    [['sessions', '--all', '--json'], false],
    [['--help'], false],
    [[], false],
  ])('%j runs until stopped: %s', (args, expected) => {
    expect(runsUntilStopped(args)).toBe(expected)
  })

  it('takes the first word that is no option as the command', () => {
    expect(commandOf(['--json', 'events', 'watch'])).toBe('events')
    expect(commandOf(['--all'])).toBeUndefined()
  })
})
