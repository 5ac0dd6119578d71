import { describe, expect, it } from 'vitest'
import { isTrustedSender, type SenderFacts } from '../../electron/main/ipc/sender-check.ts'

const fileApp = {
  appUrl: 'file:///opt/Navi/resources/app.asar/out/renderer/index.html',
  popoverId: 3,
}
const schemeApp = { appUrl: 'navi://app/index.html', popoverId: 3 }
const devApp = { appUrl: 'http://localhost:5173/', popoverId: 3 }
const sender = (over: Partial<SenderFacts>): SenderFacts => ({
  frameUrl: fileApp.appUrl,
  isMainFrame: true,
  senderId: 3,
  ...over,
})

describe('isTrustedSender', () => {
  it.each([
    ['the packaged renderer', sender({}), fileApp, true],
    [
      'the renderer with a hash route',
      sender({ frameUrl: `${fileApp.appUrl}#/settings` }),
      fileApp,
      true,
    ],
    ['another web contents', sender({ senderId: 4 }), fileApp, false],
    ['an iframe of the popover', sender({ isMainFrame: false }), fileApp, false],
    ['a destroyed frame', sender({ frameUrl: null }), fileApp, false],
    ['another local file', sender({ frameUrl: 'file:///tmp/evil.html' }), fileApp, false],
    [
      'a web page the popover was navigated to',
      sender({ frameUrl: 'https://example.com/' }),
      fileApp,
      false,
    ],
    ['the dev server', sender({ frameUrl: 'http://localhost:5173/index.html' }), devApp, true],
    ['another port on localhost', sender({ frameUrl: 'http://localhost:5174/' }), devApp, false],
    ['a file URL while in dev', sender({ frameUrl: fileApp.appUrl }), devApp, false],
    ['the app scheme', sender({ frameUrl: 'navi://app/index.html#/x' }), schemeApp, true],
    [
      'the app scheme, another host',
      sender({ frameUrl: 'navi://evil/index.html' }),
      schemeApp,
      false,
    ],
    ['a file URL while on the app scheme', sender({}), schemeApp, false],
    [
      'credentials smuggled into the app scheme',
      sender({ frameUrl: 'navi://u:p@app/' }),
      schemeApp,
      false,
    ],
    ['garbage URL', sender({ frameUrl: 'not a url' }), fileApp, false],
  ])('%s', (_name, facts, trusted, expected) => {
    expect(isTrustedSender(facts, trusted)).toBe(expected)
  })
})
