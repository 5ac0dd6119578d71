import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TOOL_DETAIL_KEYS, toolDetail } from '../../electron/engine/core/tool-detail.ts'

describe('toolDetail', () => {
  it('words a call the way the hook handler does, so both sources give one reason', () => {
    expect(toolDetail({ command: 'touch /tmp/x', description: 'Create a marker' })).toBe(
      'touch /tmp/x',
    )
    expect(toolDetail({ file_path: '/w/a.ts', content: 'x' })).toBe('/w/a.ts')
    expect(toolDetail({ command: 'make\nmake test' })).toBe('make …')
    expect(toolDetail({ command: 'x'.repeat(300) })).toHaveLength(200)
    expect(toolDetail({ unrelated: 1 })).toBeNull()
    expect(toolDetail('not an object')).toBeNull()
  })

  it('uses the same keys, in the same order, as resources/hooks/navi-hook.mjs (which cannot import it)', () => {
    const handler = readFileSync(
      join(import.meta.dirname, '../../resources/hooks/navi-hook.mjs'),
      'utf8',
    )
    const list = /const TOOL_DETAIL_KEYS = \[([^\]]*)\]/.exec(handler)?.[1] ?? ''
    const keys = [...list.matchAll(/'([^']+)'/g)].map((m) => m[1])
    expect(keys).toEqual(TOOL_DETAIL_KEYS)
  })
})
