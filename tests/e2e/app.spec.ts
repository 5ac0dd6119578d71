/**
 * The popover in Debian's Chromium against the real `navi serve`: real engine, real git repositories,
 * real claude sessions (print and tmux) against scripted APIs, the PM's real run. What a person sees:
 * the three zones, a commit arriving live, a permission prompt taking the top row, the keyboard, and a
 * refreshed briefing. Screenshots go to test-results/screenshots/app-*.png.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { hasTmux, startClaudeInTmux, TUI_READY } from '../support/claude-driver.ts'
import { structured, toolUse } from '../support/scripted-api.ts'
import { FIRST_BRIEFING, PROJECT_NAMES, pmReply } from './support/navi-world.ts'
import { expect, shot, test } from './support/navi-serve.ts'
import { findActiveCharacter } from '../../shared/text.ts'

test.describe('the popover over navi serve (real engine, claude, git; Debian Chromium)', () => {
  test('shows the real projects, events and the PM briefing in the three zones', async ({
    openApp,
  }) => {
    const page = await openApp()
    await expect(page.getByTestId('app')).toHaveAttribute('data-transport', 'http')

    const briefing = page.getByTestId('zone-briefing')
    await expect(briefing.getByTestId('briefing-text')).toContainText(FIRST_BRIEFING)
    await expect(briefing.getByTestId('attention-item')).toHaveCount(2)
    await expect(briefing.getByTestId('attention-item').first()).toContainText(
      'Review the parser task list',
    )
    await expect(briefing.getByTestId('breadcrumb')).toContainText(['Left off in parser.ts'])

    const projects = page.getByTestId('zone-projects').getByTestId('project-row')
    await expect(projects).toHaveCount(PROJECT_NAMES.length)
    for (const name of PROJECT_NAMES)
      await expect(
        page.locator(`[data-testid="project-row"][data-project="${name}"]`),
      ).toBeVisible()

    const events = page.getByTestId('zone-events').getByTestId('event-row')
    for (const name of PROJECT_NAMES)
      await expect(
        events.filter({ hasText: `${name}: first change under watch` }).first(),
      ).toHaveAttribute('data-type', 'commit')
    await shot(page, 'app-overview')
  })

  test('a commit made now appears in the events zone without a reload', async ({
    openApp,
    navi,
  }) => {
    const page = await openApp()
    await expect(page.getByTestId('event-row').first()).toBeVisible()
    await page.evaluate(() => {
      ;(globalThis as unknown as { __sameDocument: boolean }).__sameDocument = true
    })
    const subject = `beta: live commit ${String(Date.now())}`
    await navi.repos.beta.commit(subject, { 'src/live.ts': 'export const live = true\n' })

    const row = page
      .getByTestId('zone-events')
      .getByTestId('event-row')
      .filter({ hasText: subject })
    await expect(row).toBeVisible({ timeout: 20_000 })
    await expect(row).toHaveAttribute('data-type', 'commit')
    await expect(row).toHaveAttribute('data-project', 'beta')
    // Newest first.
    await expect(page.getByTestId('event-row').first()).toContainText(subject)
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument === true,
      ),
    ).toBe(true)
    await shot(page, 'app-live-commit')
  })

  test('a hostile commit subject and branch show inert: no escape, bidi or zero-width character on screen', async ({
    openApp,
    navi,
  }) => {
    const page = await openApp()
    await expect(page.getByTestId('event-row').first()).toBeVisible()
    const hostile = 'inert \u001b[2J\u001b]52;c;SGk=\u0007PWN\u202egnp.exe\u2066x\u2069\u200b end'
    await navi.repos.beta.branch('feat/\u202eevil')
    await navi.repos.beta.commit(hostile, { 'src/hostile.ts': 'export {}\n' })
    const row = page.getByTestId('zone-events').getByTestId('event-row').filter({ hasText: 'PWN' })
    await expect(row.first()).toBeVisible({ timeout: 20_000 })
    const text = await page.locator('body').innerText()
    const titles = await page
      .locator('[title]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('title') ?? '').join('\n'))
    expect(text).toContain('PWN')
    expect(findActiveCharacter(text)).toBe(-1)
    expect(findActiveCharacter(titles)).toBe(-1)
    await shot(page, 'app-hostile-commit')
  })

  test('needs tmux: a claude session at a permission prompt moves its project to the top with the reason', async ({
    openApp,
    navi,
  }) => {
    test.skip(!hasTmux(), 'needs tmux')
    const page = await openApp()
    const rows = page.getByTestId('project-row')
    await expect(rows).toHaveCount(PROJECT_NAMES.length)
    // The project that is last now, so moving to the top is a real move.
    const target = (await rows.last().getAttribute('data-project')) ?? ''
    const repo = navi.repos[target as (typeof PROJECT_NAMES)[number]]
    expect(repo, `a row for one of ${PROJECT_NAMES.join(', ')}`).toBeDefined()

    const outside = `/tmp/navi-e2e-perm-${String(process.pid)}-${String(Date.now())}`
    navi.sessionApi.enqueue(
      toolUse('Bash', { command: `touch ${outside}`, description: 'Create a marker file' }),
    )
    const tui = await startClaudeInTmux({
      cwd: repo.dir,
      env: navi.claudeEnv,
      sessionName: `perm-${target}`,
      socketName: navi.tmuxSocket,
    })
    try {
      // The CLI's default permission mode (auto since 2.1.330, whose dialog differs behind a gateway).
      await tui.waitForScreen(TUI_READY, 30_000)
      await tui.send('please create the marker file')
      await tui.waitForScreen(/Do you want to proceed\?|Auto mode can't check/, 30_000)

      const top = rows.first()
      await expect(top).toHaveAttribute('data-project', target, { timeout: 20_000 })
      await expect(top).toHaveAttribute('data-attention', 'needs_input')
      const reason = top.getByTestId('project-reason')
      await expect(reason).toBeVisible()
      await expect(reason).toHaveText(/Permission needed: Bash \(touch \/tmp\/navi-e2e-perm-/)
      await shot(page, 'app-permission-prompt')
    } finally {
      await tui.kill()
    }
  })

  test('keyboard: Tab to the projects, j/k move, Enter opens the detail, Esc goes back, Tab to events', async ({
    openApp,
  }) => {
    const page = await openApp()
    const zoneProjects = page.getByTestId('zone-projects')
    const zoneEvents = page.getByTestId('zone-events')
    const rows = page.getByTestId('project-row')
    await expect(rows).toHaveCount(PROJECT_NAMES.length)

    for (let i = 0; i < 3; i++) {
      if ((await zoneProjects.getAttribute('data-active')) === 'true') break
      await page.keyboard.press('Tab')
    }
    await expect(zoneProjects).toHaveAttribute('data-active', 'true')

    const selected = page.locator('[data-testid="project-row"][aria-selected="true"]')
    await expect(selected).toHaveCount(1)
    const indexOfSelected = async () =>
      (await rows.evaluateAll((els) =>
        els.findIndex((el) => el.getAttribute('aria-selected') === 'true'),
      )) as number
    const start = await indexOfSelected()
    // Move down first unless the cursor is on the last row.
    const [down, up] = start < PROJECT_NAMES.length - 1 ? ['j', 'k'] : ['k', 'j']
    await page.keyboard.press(down)
    await expect.poll(indexOfSelected).toBe(down === 'j' ? start + 1 : start - 1)
    await page.keyboard.press(up)
    await expect.poll(indexOfSelected).toBe(start)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowUp')
    await expect.poll(indexOfSelected).toBe(start)

    const name = (await selected.getAttribute('data-project')) ?? ''
    await page.keyboard.press('Enter')
    const detail = page.getByTestId('project-detail')
    await expect(detail).toBeVisible()
    await expect(detail).toHaveAttribute('data-project', name)
    await expect(detail.getByTestId('detail-back')).toBeVisible()
    await shot(page, 'app-project-detail')

    await page.keyboard.press('Escape')
    await expect(detail).toBeHidden()
    await expect(rows).toHaveCount(PROJECT_NAMES.length)

    await page.keyboard.press('Tab')
    await expect(zoneEvents).toHaveAttribute('data-active', 'true')
    await expect(zoneProjects).not.toHaveAttribute('data-active', 'true')
    await shot(page, 'app-events-focused')
  })

  test('Settings write settings.json through the server; a cleared override is removed', async ({
    openApp,
    navi,
  }) => {
    const page = await openApp()
    const onDisk = async (): Promise<Record<string, unknown>> =>
      JSON.parse(
        await readFile(join(navi.serveEnv.NAVI_HOME, 'settings.json'), 'utf8').catch(() => '{}'),
      )

    await page.getByTestId('settings-button').click()
    await expect(page.getByTestId('settings-view')).toBeVisible()
    const commits = page.getByTestId('setting-notify-commits')
    await expect(commits).toBeChecked()
    await commits.uncheck()
    await expect.poll(async () => (await onDisk()).notifications).toMatchObject({ commits: false })

    const model = page.getByTestId('setting-model')
    await model.fill('claude-e2e-model')
    await model.press('Enter')
    await expect.poll(async () => (await onDisk()).model).toBe('claude-e2e-model')
    await model.fill('')
    await model.press('Enter')
    await expect.poll(async () => 'model' in (await onDisk())).toBe(false)
    await shot(page, 'app-settings')

    // Back on the overview, a reload shows the same settings: they live on disk, not in the page.
    await page.reload()
    await page.getByTestId('settings-button').click()
    await expect(page.getByTestId('setting-notify-commits')).not.toBeChecked()
    await page.getByTestId('setting-notify-commits').check()
    await expect.poll(async () => (await onDisk()).notifications).toMatchObject({ commits: true })
  })

  test('a setting the server cannot save is undone on screen, with the reason', async ({
    openApp,
    navi,
  }) => {
    // A directory where settings.json should be: the server's atomic write fails.
    const file = join(navi.serveEnv.NAVI_HOME, 'settings.json')
    const saved = await readFile(file, 'utf8').catch(() => null)
    await rm(file, { force: true })
    await mkdir(file)
    try {
      const page = await openApp()
      await page.getByTestId('settings-button').click()
      const toggle = page.getByTestId('setting-notify-task_completed')
      await expect(toggle).toBeChecked()
      await toggle.click()
      await expect(page.getByTestId('settings-error')).toBeVisible()
      await expect(toggle).toBeChecked()
      await shot(page, 'app-settings-error')
    } finally {
      await rm(file, { recursive: true, force: true })
      if (saved !== null) await writeFile(file, saved)
    }
  })

  test('refresh shows "updating…", then the new briefing', async ({ openApp, navi }) => {
    const page = await openApp()
    await expect(page.getByTestId('briefing-text')).toBeVisible()
    const fresh = `Fresh briefing ${String(Date.now())}: beta has a live commit and a session asked for permission.`
    // The reply waits until "updating…" was seen (a fixed delay could end first on a loaded machine).
    let seen = false
    navi.pmApi.enqueue(structured({ ...pmReply(fresh) }, { holdUntil: () => seen }))

    await page.keyboard.press('r')
    const updating = page.getByTestId('briefing-updating')
    await expect(updating).toBeVisible({ timeout: 10_000 })
    await expect(updating).toContainText(/updating/i)
    await shot(page, 'app-briefing-updating')
    seen = true

    await expect(page.getByTestId('briefing-text')).toContainText(fresh, { timeout: 60_000 })
    await expect(updating).toBeHidden()
    await shot(page, 'app-briefing-refreshed')
  })
})
