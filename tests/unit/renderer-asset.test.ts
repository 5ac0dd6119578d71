import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveRendererAsset } from '../../electron/main/popover/renderer-asset.ts'

const root = '/opt/Navi/resources/app.asar/out/renderer'

describe('resolveRendererAsset', () => {
  it.each([
    ['navi://app/index.html', join(root, 'index.html'), 'text/html; charset=utf-8'],
    ['navi://app/', join(root, 'index.html'), 'text/html; charset=utf-8'],
    [
      'navi://app/assets/index-abc.js?v=1#x',
      join(root, 'assets/index-abc.js'),
      'text/javascript; charset=utf-8',
    ],
    ['navi://app/assets/index.css', join(root, 'assets/index.css'), 'text/css; charset=utf-8'],
    ['navi://app/assets/a%20b.svg', join(root, 'assets/a b.svg'), 'image/svg+xml'],
    ['navi://app/assets/../index.html', join(root, 'index.html'), 'text/html; charset=utf-8'],
  ])('%s → the file under the root', (url, path, mime) => {
    expect(resolveRendererAsset(root, url)).toEqual({ path, mime })
  })

  it.each([['navi://app/../../main/index.js'], ['navi://app/%2e%2e/%2e%2e/main/index.js']])(
    '%s: the URL parser folds the dot-dots, so it stays under the root',
    (url) => {
      expect(resolveRendererAsset(root, url)?.path).toBe(join(root, 'main/index.js'))
    },
  )

  it.each([
    ['another host', 'navi://evil/index.html'],
    ['another scheme', 'file:///opt/Navi/resources/app.asar/out/renderer/index.html'],
    ['encoded slash and dot-dot', 'navi://app/assets%2f..%2f..%2f..%2fmain%2findex.js'],
    ['backslashes', 'navi://app/..%5c..%5cmain%5cindex.js'],
    ['NUL byte', 'navi://app/index.html%00.js'],
    ['bad escape', 'navi://app/%E0%A4%A'],
    ['unknown type', 'navi://app/run.sh'],
    ['not a URL', 'not a url'],
  ])('refuses %s', (_name, url) => {
    expect(resolveRendererAsset(root, url)).toBeNull()
  })
})
