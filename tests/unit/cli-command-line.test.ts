/** The `navi` command line: what it parses to, and the one sentence a wrong one gets. */
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../electron/cli/command-line.ts'

describe('parseCommandLine', () => {
  it('parses a command, its positionals and options', () => {
    const parsed = parseCommandLine(['events', '--since', '2h', '--json'])
    expect(parsed).toMatchObject({
      positionals: ['events'],
      values: { since: '2h', json: true, all: false },
    })
  })

  it("an unknown option is named, without parseArgs' advice to quote it after --", () => {
    expect(parseCommandLine(['status', '--bogus'])).toEqual({ error: 'unknown option --bogus' })
    expect(parseCommandLine(['status', '-x'])).toEqual({ error: 'unknown option -x' })
  })

  it('an option missing its value, or given one it does not take, says which', () => {
    const missing = parseCommandLine(['events', '--since'])
    expect('error' in missing && missing.error).toMatch(/--since.*missing/)
    const extra = parseCommandLine(['status', '--json=yes'])
    expect('error' in extra && extra.error).toMatch(/--json.*does not take an argument/)
  })
})
