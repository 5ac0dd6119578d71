import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  compareVersions,
  TESTED_CLI_VERSIONS,
  testedRangeNote,
} from '../../shared/tested-cli-versions.ts'

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
  devDependencies: Record<string, string>
}

describe('tested CLI versions', () => {
  it('the newest tested release is the pinned dev dependency (raise both together)', () => {
    expect(pkg.devDependencies['@anthropic-ai/claude-code']).toBe(TESTED_CLI_VERSIONS.claude.newest)
    expect(pkg.devDependencies['@openai/codex']).toBe(TESTED_CLI_VERSIONS.codex.newest)
  })

  it('compares versions by number, not as text', () => {
    expect(compareVersions('2.1.197', '2.1.330')).toBe(-1)
    expect(compareVersions('2.1.1000', '2.1.330')).toBe(1)
    expect(compareVersions('2.1.330', '2.1.330')).toBe(0)
  })

  it('says where a CLI stands against the range', () => {
    expect(testedRangeNote('claude', '2.1.332 (Claude Code)')).toBe(
      '2.1.332 (tested 2.1.197–2.1.332)',
    )
    expect(testedRangeNote('claude', '2.1.400 (Claude Code)')).toMatch(/newer than tested/)
    expect(testedRangeNote('claude', '1.0.24 (Claude Code)')).toMatch(/older than tested/)
    expect(testedRangeNote('codex', 'codex-cli 0.150.0')).toBe('0.150.0 (tested 0.140.0–0.171.0)')
    expect(testedRangeNote('codex', 'codex-cli 0.77.0')).toMatch(/older than tested/)
  })
})
