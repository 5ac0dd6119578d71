import { describe, expect, it } from 'vitest'
import { toolDetail, toolPurpose } from '../../electron/engine/core/tool-detail.ts'

describe('toolDetail', () => {
  it('words a call in a few words: the command, the file, the URL', () => {
    expect(toolDetail({ command: 'touch /tmp/x', description: 'Create a marker' })).toBe(
      'touch /tmp/x',
    )
    expect(toolDetail({ file_path: '/w/a.ts', content: 'x' })).toBe('/w/a.ts')
    expect(toolDetail({ command: 'make\nmake test' })).toBe('make …')
    expect(toolDetail({ command: 'x'.repeat(300) })).toHaveLength(200)
    expect(toolDetail({ unrelated: 1 })).toBeNull()
    expect(toolDetail('not an object')).toBeNull()
  })
})

describe('toolPurpose', () => {
  it('is the agent’s description when the detail is something else, on one line and capped', () => {
    expect(toolPurpose({ command: 'ls', description: 'List\nthe files' })).toBe('List the files')
    expect(toolPurpose({ description: 'Explore the repo' })).toBeNull()
    expect(toolPurpose({ command: 'ls' })).toBeNull()
    expect(toolPurpose({ command: 'ls', description: 'x'.repeat(400) })?.length).toBe(300)
    expect(toolPurpose('not an object')).toBeNull()
  })
})
