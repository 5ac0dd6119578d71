/** How to install a missing tool, per platform (`navi doctor`, the popover's tools notice). */
import { describe, expect, it } from 'vitest'
import { toolFix } from '../../electron/runtime/tools.ts'

describe('toolFix', () => {
  it.each<[Parameters<typeof toolFix>[0], NodeJS.Platform, RegExp]>([
    ['claude', 'linux', /^npm install -g @anthropic-ai\/claude-code$/],
    ['git', 'darwin', /brew install git/],
    ['git', 'linux', /apt-get install git/],
    ['tmux', 'darwin', /brew install tmux/],
    ['gh', 'linux', /apt-get install gh.*gh auth login/],
  ])('%s on %s', (name, platform, expected) => {
    expect(toolFix(name, platform)).toMatch(expected)
  })
})
