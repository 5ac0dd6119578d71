/**
 * Pure layout cases of the popover (empty, a realistic day, overflow, 500 events, dark mode, keys): the built
 * renderer with a `window.api` stub, no server. Screenshots: test-results/screenshots/layout-*.png.
 */
import { test as base, expect, type Page } from '@playwright/test'
import { layoutShot, openStubbedPopover, push, recordedCalls } from './support/api-stub.ts'
import { emptyData, manyEvents, overflowData, richData } from './support/layout-fixtures.ts'

const POPOVER = { width: 420, height: 620 }

/** Every test fails on a page error or a console error (a CSP violation, a React warning). */
const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(error.message))
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      await use(problems)
      expect(problems).toEqual([])
    },
    { auto: true },
  ],
})

/** Elements whose right edge passes the viewport, and whether the page scrolls sideways. */
async function horizontalOverflow(page: Page) {
  const width = page.viewportSize()?.width ?? 0
  const sideways = await page
    .locator('html')
    .evaluate(
      (el) => el.scrollWidth > el.clientWidth || el.ownerDocument.body.scrollWidth > el.clientWidth,
    )
  const spilling = await page
    .locator('[data-testid]')
    .evaluateAll(
      (els, max) =>
        els
          .filter((el) => el.getBoundingClientRect().right > max + 0.5)
          .map((el) => el.getAttribute('data-testid')),
      width,
    )
  return { sideways, spilling }
}

test('empty state: no projects and no briefing yet', async ({ page }) => {
  await page.setViewportSize(POPOVER)
  await openStubbedPopover(page, emptyData(Date.now()))
  await expect(page.getByTestId('app')).toHaveAttribute('data-transport', 'ipc')
  await expect(page.getByTestId('briefing-empty')).toHaveText('No PM briefing yet')
  await expect(page.getByTestId('projects-empty')).toBeVisible()
  await expect(page.getByTestId('project-row')).toHaveCount(0)
  await expect(page.getByTestId('event-row')).toHaveCount(0)
  await expect(page.getByTestId('tools-missing')).toHaveCount(0)
  await expect(page.getByTestId('briefing-updated')).toHaveCount(0)
  await layoutShot(page, 'empty')
})

test('a realistic day: zones, order, attention, breadcrumbs and colors', async ({ page }) => {
  await page.setViewportSize(POPOVER)
  await openStubbedPopover(page, richData(Date.now()))
  const rows = page.getByTestId('project-row')
  await expect(rows).toHaveCount(5)
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-project')))).toEqual(
    ['navi', 'apollo', 'website', 'dotfiles', 'mnemos'],
  )
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true')
  await expect(rows.first().getByTestId('project-reason')).toContainText('npm test')
  await expect(page.getByTestId('briefing-updated')).toHaveText('updated 2m ago')
  const priorities = page.getByTestId('attention-item')
  expect(
    await priorities.evaluateAll((els) => els.map((el) => el.getAttribute('data-priority'))),
  ).toEqual(['high', 'medium'])
  await expect(page.getByTestId('breadcrumb')).toHaveCount(1)
  const events = page.getByTestId('event-row')
  await expect(events.first()).toHaveAttribute('data-type', 'task_completed')
  await expect(events.nth(1)).toContainText('needs permission: Claude needs your permission')
  const colors = await events.evaluateAll((els) =>
    els.map((el) => {
      const text = el.querySelector('.event-text')
      return text ? el.ownerDocument.defaultView?.getComputedStyle(text).color : null
    }),
  )
  expect(new Set(colors).size).toBe(3)
  const opacity = await events.evaluateAll((els) =>
    els.map((el) => el.ownerDocument.defaultView?.getComputedStyle(el).opacity),
  )
  expect(opacity.at(0)).toBe('1')
  expect(opacity.at(-1)).not.toBe('1')
  expect(await horizontalOverflow(page)).toEqual({ sideways: false, spilling: [] })
  await layoutShot(page, 'day-light')

  await page.keyboard.press('Space')
  await expect(page.getByTestId('project-expanded')).toBeVisible()
  await layoutShot(page, 'day-expanded')
})

for (const width of [480, 360]) {
  test(`overflow at ${width}px: long names, 30 projects, no sideways scroll`, async ({ page }) => {
    await page.setViewportSize({ width, height: POPOVER.height })
    await openStubbedPopover(page, overflowData(Date.now()))
    await expect(page.getByTestId('project-row')).toHaveCount(30)
    await expect(page.getByTestId('tools-missing')).toContainText('gh')
    await expect(page.getByTestId('engine-errors')).toContainText('not a git repository')
    expect(await horizontalOverflow(page)).toEqual({ sideways: false, spilling: [] })
    const name = page.getByTestId('project-row').first().locator('.row-name')
    expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    const projects = page.getByTestId('zone-projects').locator('.zone-scroll')
    expect(await projects.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
    await layoutShot(page, `overflow-${width}`)

    await page.keyboard.press('Enter')
    await expect(page.getByTestId('project-detail')).toBeVisible()
    expect(await horizontalOverflow(page)).toEqual({ sideways: false, spilling: [] })
    await layoutShot(page, `overflow-detail-${width}`)
  })
}

test('500 events scroll, newest first, and pushes prepend without duplicates', async ({ page }) => {
  await page.setViewportSize(POPOVER)
  const now = Date.now()
  const data = { ...richData(now), events: manyEvents(now, 500) }
  await openStubbedPopover(page, data)
  const events = page.getByTestId('event-row')
  // The first page is 200; the rest comes with "Load older events".
  await expect(events).toHaveCount(200)
  await expect(events.first()).toHaveAttribute('data-project', 'apollo')
  const older = page.getByRole('button', { name: 'Load older events' })
  await older.click()
  await expect(events).toHaveCount(400)
  await older.click()
  await expect(events).toHaveCount(500)
  await expect(older).toHaveCount(0)
  const times = await events.evaluateAll((els) =>
    els.map((el) => Date.parse(el.querySelector('time')?.getAttribute('datetime') ?? '')),
  )
  expect(times).toEqual([...times].sort((a, b) => b - a))
  const scroller = page.getByTestId('zone-events').locator('.zone-scroll')
  expect(await scroller.evaluate((el) => el.scrollHeight > 5 * el.clientHeight)).toBe(true)
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  await expect(events.nth(499)).toBeInViewport()

  const fresh = {
    ...(data.events[0] as (typeof data.events)[0]),
    id: 'fresh',
    timestamp: new Date().toISOString(),
  }
  await push(page, 'events:appended', [fresh, data.events[1] as (typeof data.events)[0]])
  await expect(events).toHaveCount(501)
  await expect(events.first()).toHaveAttribute('data-project', fresh.project)
  expect(await horizontalOverflow(page)).toEqual({ sideways: false, spilling: [] })
  await layoutShot(page, 'events-500')
})

test('dark mode follows the OS', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.setViewportSize(POPOVER)
  await openStubbedPopover(page, richData(Date.now()))
  await expect(page.getByTestId('project-row')).toHaveCount(5)
  const background = await page
    .locator('body')
    .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor ?? '')
  const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number)
  expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(150)
  await layoutShot(page, 'day-dark')
  await page.keyboard.press('Enter')
  await layoutShot(page, 'detail-dark')
})

test('keyboard: zones, cursor, detail, expansion, refresh, hide', async ({ page }) => {
  await page.setViewportSize(POPOVER)
  await openStubbedPopover(page, richData(Date.now()))
  const rows = page.getByTestId('project-row')
  await expect(page.getByTestId('zone-projects')).toHaveAttribute('data-active', 'true')

  await page.keyboard.press('j')
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('k')
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true')
  await expect(rows.first()).toHaveAttribute('aria-selected', 'false')

  await page.keyboard.press(' ')
  await expect(page.getByTestId('project-expanded')).toHaveAttribute('data-project', 'apollo')
  await page.keyboard.press(' ')
  await expect(page.getByTestId('project-expanded')).toHaveCount(0)

  await page.keyboard.press('Tab')
  await expect(page.getByTestId('zone-events')).toHaveAttribute('data-active', 'true')
  await expect(page.getByTestId('zone-projects')).toHaveAttribute('data-active', 'false')
  await page.keyboard.press('j')
  await expect(page.getByTestId('event-row').nth(1)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('zone-projects')).toHaveAttribute('data-active', 'true')

  await page.keyboard.press('k')
  await page.keyboard.press('Enter')
  const detail = page.getByTestId('project-detail')
  await expect(detail).toHaveAttribute('data-project', 'navi')
  await expect(detail.getByTestId('detail-session')).toHaveCount(2)
  await expect(detail.getByTestId('detail-task')).toHaveCount(7)
  await expect(detail.getByTestId('detail-commit')).toHaveCount(1)
  await layoutShot(page, 'detail-light')
  await detail.getByTestId('go-to-session').click()
  await page.keyboard.press('Escape')
  await expect(detail).toHaveCount(0)
  await page.keyboard.press('Enter')
  await page.getByTestId('detail-back').click()
  await expect(page.getByTestId('zone-projects')).toBeVisible()

  await page.keyboard.press('r')
  await page.keyboard.press('Escape')
  const calls = (await recordedCalls(page)).map((c) => c.channel)
  expect(calls).toContain('briefing:refresh')
  expect(calls.at(-1)).toBe('popover:hide')
  expect((await recordedCalls(page)).find((c) => c.channel === 'session:focus')?.input).toEqual({
    session_id: 's-navi',
  })
})

test('pushes: PM progress, navigation to Settings and a project', async ({ page }) => {
  await page.setViewportSize(POPOVER)
  const data = richData(Date.now())
  await openStubbedPopover(page, data)
  await push(page, 'pm:status', {
    phase: 'thinking',
    trigger: 'on_demand',
    at: new Date().toISOString(),
  })
  await expect(page.getByTestId('briefing-updating')).toHaveText('updating… (thinking)')
  await layoutShot(page, 'updating')
  await push(page, 'pm:status', {
    phase: 'done',
    trigger: 'on_demand',
    at: new Date().toISOString(),
  })
  await expect(page.getByTestId('briefing-updating')).toHaveCount(0)

  const state = data.briefing.state
  await push(page, 'briefing:changed', {
    state: {
      ...state,
      is_stale: true,
      error: 'claude exited with code 1',
      claude_missing: 'npm i -g @anthropic-ai/claude-code',
    },
    running: null,
  })
  await expect(page.getByTestId('briefing-stale')).toHaveAttribute(
    'title',
    'claude exited with code 1',
  )
  await expect(page.getByTestId('claude-missing')).toContainText(
    'npm i -g @anthropic-ai/claude-code',
  )
  await layoutShot(page, 'stale')

  await push(page, 'popover:navigate', { view: 'settings' })
  const settings = page.getByTestId('settings-view')
  await expect(settings).toBeVisible()
  await settings.getByTestId('setting-notify-commits').click()
  await settings.getByTestId('setting-poll_interval').fill('45s')
  await settings.getByTestId('setting-poll_interval').press('Enter')
  // An override is set, then removed by emptying its field; a required setting cannot be emptied.
  const model = settings.getByTestId('setting-model')
  await model.fill('claude-opus-4')
  await model.press('Enter')
  await expect(model).toHaveValue('claude-opus-4')
  await model.fill('')
  await model.blur()
  await expect(model).toHaveValue('')
  await expect(model).toHaveAttribute('placeholder', 'as config.yaml')
  const shortcut = settings.getByTestId('setting-global_shortcut')
  await shortcut.fill(' ')
  await shortcut.press('Enter')
  await expect(shortcut).toHaveAttribute('aria-invalid', 'true')
  await expect(settings.getByText('Cannot be empty')).toBeVisible()
  await expect(settings.getByTestId('setting-notify-commits')).not.toBeChecked()
  await expect(settings.getByTestId('setting-poll_interval')).toHaveValue('45s')
  await settings.getByTestId('install-hooks').click()
  await expect(settings.getByTestId('install-hooks-result')).toContainText('Hooks installed')
  expect(await horizontalOverflow(page)).toEqual({ sideways: false, spilling: [] })
  await layoutShot(page, 'settings')
  const sets = (await recordedCalls(page))
    .filter((c) => c.channel === 'settings:set')
    .map((c) => c.input)
  expect(sets).toEqual([
    { notifications: { ...data.settings.notifications, commits: false } },
    { poll_interval: '45s' },
    { model: 'claude-opus-4' },
    { model: null },
  ])

  await push(page, 'popover:navigate', { view: 'project', project: 'apollo' })
  await expect(page.getByTestId('project-detail')).toHaveAttribute('data-project', 'apollo')
  await page.keyboard.press('Backspace')
  await expect(page.getByTestId('zone-projects')).toBeVisible()
})

test('one click on "Load older events" loads them while the projects zone is active', async ({
  page,
}) => {
  await page.setViewportSize({ width: 420, height: 640 })
  const now = Date.now()
  await openStubbedPopover(page, { ...richData(now), events: manyEvents(now, 500) })
  const events = page.getByTestId('event-row')
  await expect(events).toHaveCount(200)
  await expect(page.getByTestId('zone-projects')).toHaveAttribute('data-active', 'true')
  await page.getByRole('button', { name: 'Load older events' }).click()
  await expect(events).toHaveCount(400)
  await expect(page.getByTestId('zone-events')).toHaveAttribute('data-active', 'true')
})

test('3 projects and 3 events: no zone is cut while the events leave room', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 640 })
  // Three projects waiting on you (three lines each) under two banners, and only three events.
  const rich = richData(Date.now())
  const waiting = rich.state.projects.find((p) => p.name === 'navi')
  if (!waiting) throw new Error('richData lost navi')
  const projects = ['navi', 'apollo', 'mnemos'].map((name) => ({
    ...waiting,
    name,
    project_dir: `/work/${name}`,
  }))
  await openStubbedPopover(page, {
    ...rich,
    state: {
      ...rich.state,
      projects,
      errors: ['git failed in /work/x: fatal: not a git repository'],
    },
    events: rich.events.slice(0, 3),
    tools: overflowData(Date.now()).tools,
  })
  const rows = page.getByTestId('project-row')
  await expect(rows).toHaveCount(3)
  await expect(page.getByTestId('event-row')).toHaveCount(3)
  await expect(page.getByTestId('breadcrumb')).toHaveCount(1)
  const visible = await page.getByTestId('zone-projects').locator('.zone-scroll').boundingBox()
  if (!visible) throw new Error('the projects zone has no box')
  for (const box of await rows.evaluateAll((els) => els.map((el) => el.getBoundingClientRect()))) {
    expect(box.top).toBeGreaterThanOrEqual(visible.y - 0.5)
    expect(box.bottom).toBeLessThanOrEqual(visible.y + visible.height + 0.5)
  }
  // The briefing is not cut (its breadcrumb fades out under the mask) either.
  const briefing = page.getByTestId('zone-briefing').locator('.briefing-body')
  expect(await briefing.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1)
  await layoutShot(page, 'few-projects')
})
