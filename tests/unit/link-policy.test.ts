import { describe, expect, it } from 'vitest'
import {
  isAllowedExternalLink,
  isAllowedNavigation,
} from '../../electron/main/security/link-policy.ts'

describe('isAllowedExternalLink', () => {
  it.each<[string, boolean]>([
    ['https://github.com/anthropics/claude-code', true],
    ['http://github.com/x', false],
    ['https://GITHUB.com/x', true],
    ['https://docs.anthropic.com/en/docs', true],
    ['https://www.anthropic.com/', true],
    ['https://docs.claude.com/x', true],
    ['https://code.claude.com/docs', true],
    ['https://www.npmjs.com/package/@anthropic-ai/claude-code', true],
    ['https://npmjs.com/package/x', true],
    ['https://gist.github.com/x', false],
    ['https://github.com.evil.example/x', false],
    ['https://evilgithub.com/', false],
    ['https://github.com@evil.example/', false],
    ['https://user:pw@github.com/', false],
    ['https://github.com:8443/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['vscode://file/x', false],
    ['ftp://github.com/', false],
    ['github.com/x', false],
    ['', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isAllowedExternalLink(url)).toBe(expected)
  })

  it('uses the given allow-list instead of the default', () => {
    expect(isAllowedExternalLink('https://example.com/', ['example.com'])).toBe(true)
    expect(isAllowedExternalLink('https://github.com/', ['example.com'])).toBe(false)
  })
})

describe('isAllowedNavigation', () => {
  it.each<[string, string, boolean]>([
    ['http://localhost:5173/#/settings', 'http://localhost:5173/', true],
    ['navi://app/index.html#/settings', 'navi://app/index.html', true],
    ['navi://other/index.html', 'navi://app/index.html', false],
    ['https://app/index.html', 'navi://app/index.html', false],
    ['http://localhost:5173/other', 'http://localhost:5173', true],
    ['http://localhost:5174/', 'http://localhost:5173/', false],
    ['http://127.0.0.1:5173/', 'http://localhost:5173/', false],
    ['https://github.com/', 'http://localhost:5173/', false],
    ['file:///app/out/renderer/index.html#x', 'file:///app/out/renderer/index.html', true],
    ['file:///app/out/renderer/index.html?v=1', 'file:///app/out/renderer/index.html', true],
    ['file:///etc/passwd', 'file:///app/out/renderer/index.html', false],
    ['https://github.com/', 'file:///app/out/renderer/index.html', false],
    ['javascript:alert(1)', 'http://localhost:5173/', false],
    ['not a url', 'http://localhost:5173/', false],
    ['http://localhost:5173/', 'not a url', false],
    ['about:blank', 'about:blank', false],
  ])('%s from %s → %s', (url, app, expected) => {
    expect(isAllowedNavigation(url, app)).toBe(expected)
  })
})
