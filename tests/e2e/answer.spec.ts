/**
 * Answering an agent from the popover in a browser (`navi serve`, Debian Chromium): a real `claude` in
 * tmux asks permission for a Bash call; with Navi's hooks installed and "Away" switched on in the popover,
 * Navi's hook holds the request, the project's detail shows exactly what is asked, and Allow runs the tool
 * (its effect is on disk) while Deny with a reason sends the reason to the agent (in the scripted API's
 * next request).
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { installHooks, uninstallHooks } from '../../electron/engine/adapters/hooks-install.ts'
import { hasTmux, startClaudeInTmux, TUI_READY } from '../support/claude-driver.ts'
import { collectToolResults, text, toolUse } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'
import type { NaviFixture } from './support/navi-serve.ts'
import { expect, shot, test } from './support/navi-serve.ts'

const pathsOf = (navi: NaviFixture) => ({
  naviHome: navi.serveEnv.NAVI_HOME,
  claudeConfigDir: navi.serveEnv.CLAUDE_CONFIG_DIR,
  codexHome: navi.serveEnv.CODEX_HOME,
})

/** Away on from the header's switch, as a user leaving the desk would. */
async function goAway(page: Page) {
  const toggle = page.getByTestId('away-toggle')
  await expect(toggle).toHaveText('At desk')
  await toggle.click()
  await expect(toggle).toHaveText('Away')
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
}

/** Starts a claude TUI in the project (classic dialog), asks it to run `command`, opens the detail. */
async function askPermission(page: Page, navi: NaviFixture, label: string, command: string) {
  const repo = navi.repos.gamma
  navi.sessionApi.enqueue(toolUse('Bash', { command, description: 'Create a marker file' }))
  navi.sessionApi.enqueue(text('Done.'))
  const tui = await startClaudeInTmux({
    cwd: repo.dir,
    env: navi.claudeEnv,
    sessionName: `answer-${label}`,
    socketName: navi.tmuxSocket,
    args: ['--permission-mode', 'default'],
  })
  await tui.waitForScreen(TUI_READY, 30_000)
  await tui.send('please create the marker file')
  const row = page.locator('[data-testid="project-row"][data-project="gamma"]')
  await expect(row).toHaveAttribute('data-attention', 'needs_input', { timeout: 45_000 })
  await row.click()
  await page.keyboard.press('Enter')
  const request = page.locator('[data-testid="request-answer"][data-answerable="true"]')
  await expect(request).toBeVisible({ timeout: 30_000 })
  await expect(request.getByTestId('request-call')).toHaveText(`Bash${command}`)
  await expect(request.getByTestId('pending-request')).toContainText('“Create a marker file”')
  return { tui, request }
}

test.describe('answering a waiting agent from the popover (real claude in tmux, navi serve)', () => {
  test.beforeEach(({ navi }) => {
    test.skip(!hasTmux(), 'needs tmux')
    return installHooks(pathsOf(navi)).then(() => undefined)
  })
  test.afterEach(async ({ navi }) => {
    await navi.serve.call('answering:set', { on: false })
    await uninstallHooks(pathsOf(navi))
  })

  test('Allow: the tool runs and the request leaves the popover', async ({ openApp, navi }) => {
    const page = await openApp()
    await goAway(page)
    const outside = `/tmp/navi-e2e-allow-${String(process.pid)}-${String(Date.now())}`
    const { tui, request } = await askPermission(page, navi, 'allow', `touch ${outside}`)
    try {
      await shot(page, 'answer-held-request')
      await request.getByTestId('answer-allow').click()
      await expect(page.getByTestId('notice')).toContainText(`allowed Bash (touch ${outside})`)
      await waitUntil(() => existsSync(outside), 30_000, 'the allowed tool to run')
      await expect(page.getByTestId('request-answer')).toHaveCount(0, { timeout: 30_000 })
    } finally {
      await tui.kill()
      await rm(outside, { force: true })
    }
  })

  test('Deny with a reason: the agent receives the reason, the tool never runs', async ({
    openApp,
    navi,
  }) => {
    const page = await openApp()
    await goAway(page)
    const outside = `/tmp/navi-e2e-deny-${String(process.pid)}-${String(Date.now())}`
    const { tui, request } = await askPermission(page, navi, 'deny', `touch ${outside}`)
    try {
      const before = navi.sessionApi.requests.length
      await request.getByTestId('answer-deny-reason').click()
      await request.getByTestId('answer-reason').fill('Write it inside the project instead')
      await shot(page, 'answer-deny-reason')
      await request.getByTestId('answer-reason').press('Enter')
      await expect(page.getByTestId('notice')).toContainText('denied Bash')
      const results = await waitUntil(
        () => {
          const later = navi.sessionApi.requests.slice(before)
          const found = JSON.stringify(collectToolResults(later))
          return found.includes('Write it inside the project instead') ? found : null
        },
        30_000,
        'the reason in the next request to the API',
      )
      expect(results).toContain('Write it inside the project instead')
      expect(existsSync(outside)).toBe(false)
    } finally {
      await tui.kill()
    }
  })
})
