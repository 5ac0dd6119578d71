import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'
import { RENDERER_CSP } from '../../shared/csp.ts'

const directives = (policy: string) =>
  policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)

it("the page's meta CSP is the header policy, less what a meta tag cannot carry", () => {
  const html = readFileSync(resolve(import.meta.dirname, '../../renderer/index.html'), 'utf8')
  const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
  expect(meta, 'renderer/index.html has a CSP meta tag').toBeDefined()
  const headerOnly = ['frame-ancestors', 'form-action']
  expect(directives(meta ?? '')).toEqual(
    directives(RENDERER_CSP).filter((d) => !headerOnly.some((name) => d.startsWith(name))),
  )
})
