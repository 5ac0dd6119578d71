import { describe, expect, it } from 'vitest'
import { toolDetail } from '../../electron/engine/core/tool-detail.ts'

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
