/**
 * The built CLI's code cache file name (electron/cli/code-cache-state.ts): one per build, Node, kind of
 * command and set of Node options, since V8 refuses a cache made under other flags.
 */
import { describe, expect, it } from 'vitest'
import { codeCacheFileName } from '../../electron/cli/code-cache-state.ts'

const base = {
  prefix: 'cli-code-',
  build: '0123456789abcdef',
  nodeVersion: 'v20.20.2',
  arch: 'x64',
  untilStopped: false,
  execArgv: [] as string[],
  nodeOptions: undefined as string | undefined,
}

describe('codeCacheFileName', () => {
  it('names a cache by build, Node and kind, with no suffix when Node runs without options', () => {
    expect(codeCacheFileName(base)).toBe('cli-code-0123456789abcdef-v20.20.2-x64.bin')
    expect(codeCacheFileName({ ...base, nodeOptions: '' })).toBe(codeCacheFileName(base))
    expect(codeCacheFileName({ ...base, untilStopped: true })).toBe(
      'cli-code-0123456789abcdef-v20.20.2-x64-long.bin',
    )
  })

  it('gives each set of Node options (NODE_OPTIONS or the command line) a name of its own, the same each time', () => {
    const heap = codeCacheFileName({ ...base, nodeOptions: '--max-old-space-size=2048' })
    expect(heap).toMatch(/^cli-code-0123456789abcdef-v20\.20\.2-x64-o[0-9a-f]{8}\.bin$/)
    expect(codeCacheFileName({ ...base, nodeOptions: '--max-old-space-size=2048' })).toBe(heap)
    const names = new Set([
      codeCacheFileName(base),
      heap,
      codeCacheFileName({ ...base, nodeOptions: '--max-old-space-size=4096' }),
      codeCacheFileName({ ...base, execArgv: ['--max-old-space-size=2048'] }),
      codeCacheFileName({ ...base, untilStopped: true, nodeOptions: '--max-old-space-size=2048' }),
    ])
    expect(names.size).toBe(5)
  })
})
