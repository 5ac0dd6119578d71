import { describe, expect, it } from 'vitest'
import { contentTypeFor, resolveStaticPath } from '../../electron/runtime/static-files.ts'

const ROOT = '/srv/navi/out/renderer'

describe('resolveStaticPath', () => {
  it.each([
    ['/', `${ROOT}/index.html`],
    ['/index.html', `${ROOT}/index.html`],
    ['/assets/index-abc.js', `${ROOT}/assets/index-abc.js`],
    ['/assets/', `${ROOT}/assets/index.html`],
    ['/a%20b.css', `${ROOT}/a b.css`],
    ['/assets/../index.html', `${ROOT}/index.html`],
  ])('%s → %s', (path, expected) => {
    expect(resolveStaticPath(ROOT, path)).toEqual({ ok: true, path: expected })
  })

  it.each([
    ['/../package.json', 'outside'],
    ['/%2e%2e/package.json', 'outside'],
    ['/..%2fpackage.json', 'outside'],
    ['/assets/../../x', 'outside'],
    ['/..', 'outside'],
    ['/%2e%2e', 'outside'],
    ['/../renderer-other/x', 'outside'],
    ['/%E0%A4%A', 'bad_path'],
    ['/a%00.js', 'bad_path'],
    ['relative', 'bad_path'],
  ])('refuses %s (%s)', (path, reason) => {
    expect(resolveStaticPath(ROOT, path)).toEqual({ ok: false, reason })
  })
})

describe('contentTypeFor', () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['a/b.JS', 'text/javascript; charset=utf-8'],
    ['x.mjs', 'text/javascript; charset=utf-8'],
    ['s.css', 'text/css; charset=utf-8'],
    ['i.svg', 'image/svg+xml'],
    ['f.woff2', 'font/woff2'],
    ['p.png', 'image/png'],
    ['x.map', 'application/json; charset=utf-8'],
    ['Makefile', 'application/octet-stream'],
    ['x.exe', 'application/octet-stream'],
  ])('%s → %s', (path, type) => {
    expect(contentTypeFor(path)).toBe(type)
  })
})
