/** Which command lines `navi` answers with its help before loading the rest of the CLI. */
import { describe, expect, it } from 'vitest'
import { asksForHelp, USAGE } from '../../electron/cli/usage.ts'

describe('asksForHelp', () => {
  it.each<[string[], boolean]>([
    [[], true],
    [['--help'], true],
    [['-h'], true],
    [['--json', '-h'], true],
    [['status'], false],
    [['status', '--help'], false],
    [['--json'], false],
    [['events', '--since', '-h'], false],
  ])('%j → %s', (argv, expected) => {
    expect(asksForHelp(argv)).toBe(expected)
  })

  it('the help names every command', () => {
    for (const command of [
      'status',
      'sessions',
      'events',
      'watch',
      'brief',
      'serve',
      'hooks',
      'doctor',
      'usage',
      'memory',
    ]) {
      expect(USAGE).toMatch(new RegExp(`^  ${command} `, 'm'))
    }
  })
})
