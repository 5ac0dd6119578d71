import { describe, expect, it } from 'vitest'
import { naviFiles, type EnginePaths } from '../../electron/engine/core/paths.ts'

const paths = (): EnginePaths => ({
  naviHome: '/h/.navi',
  claudeConfigDir: '/h/.claude',
  codexHome: '/h/.codex',
})

describe('naviFiles', () => {
  it('names each file under its root', () => {
    const files = naviFiles(paths())
    expect(files.eventLog).toBe('/h/.navi/pm/events.jsonl')
    expect(files.claudeProjects).toBe('/h/.claude/projects')
    expect(files.codexSessions).toBe('/h/.codex/sessions')
  })

  it('gives the same files again for the same paths object, and cannot be changed', () => {
    const p = paths()
    const files = naviFiles(p)
    expect(naviFiles(p)).toBe(files)
    expect(Object.isFrozen(files)).toBe(true)
  })

  it('names them again when a root of the paths object changed', () => {
    const p = paths()
    const before = naviFiles(p)
    p.naviHome = '/other/.navi'
    const after = naviFiles(p)
    expect(after).not.toBe(before)
    expect(after.eventLog).toBe('/other/.navi/pm/events.jsonl')
    expect(after.claudeProjects).toBe('/h/.claude/projects')
  })
})
