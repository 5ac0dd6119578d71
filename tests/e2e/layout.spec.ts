/**
 * Pure layout cases of the popover (empty, a realistic day, overflow, 500 events, dark mode, keys): the built
 * renderer with a `window.api` stub, no server. Screenshots: test-results/screenshots/layout-*.png.
 */
import { test as base, expect, type Page } from '@playwright/test'
import { layoutShot, openStubbedPopover, push, recordedCalls } from './support/api-stub.ts'
import { emptyData, manyEvents, overflowData, richData } from './support/layout-fixtures.ts'
import { makeSession } from '../support/session-fixture.ts'

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

test('claude missing: the banner and the PM zone each say it once, with the fix', async ({
  page,
}) => {
  await page.setViewportSize(POPOVER)
  const data = emptyData(Date.now())
  const hint =
    'Claude Code CLI not found: install it with `npm install -g @anthropic-ai/claude-code`, or set NAVI_CLAUDE_BIN to the path of the claude binary.'
  data.briefing.state.claude_missing = hint
  data.tools[0] = {
    name: 'claude',
    found: false,
    path: null,
    fix: 'install it with `npm install -g @anthropic-ai/claude-code`, or set NAVI_CLAUDE_BIN to the path of the claude binary',
  }
  await openStubbedPopover(page, data)
  const banner = page.locator('[data-tool="claude"]')
  await expect(banner).toContainText('claude not found — install it with')
  const zone = page.getByTestId('claude-missing')
  await expect(zone).toHaveText(`No briefing: ${hint}`)
  // "not found" once in each, and no placeholder saying again that there is no briefing.
  for (const text of [await banner.innerText(), await zone.innerText()]) {
    expect(text.match(/not found/gi)).toHaveLength(1)
  }
  await expect(page.getByTestId('briefing-empty')).toHaveCount(0)
  await layoutShot(page, 'claude-missing')
})

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

test('a session in trouble says why on its row, in the expanded row and in its detail', async ({
  page,
}) => {
  await page.setViewportSize(POPOVER)
  const now = Date.now()
  const data = richData(now)
  const reason = 'the same command failed 3 times in a row: npm test -- --run parser'
  const since = new Date(now - 4 * 60_000).toISOString()
  const projects = data.state.projects.map((p) =>
    p.name !== 'website'
      ? p
      : {
          ...p,
          attention: 'needs_input' as const,
          sessions: [
            makeSession({
              id: 'w1',
              name: 'redesign',
              status: 'working',
              status_reason: 'running Bash',
              last_activity: since,
              trouble: { kind: 'failing_command' as const, reason, since },
            }),
          ],
        },
  )
  await openStubbedPopover(page, { ...data, state: { ...data.state, projects } })
  const row = page.locator('[data-testid="project-row"][data-project="website"]')
  await expect(row).toHaveAttribute('data-attention', 'needs_input')
  await expect(row.getByTestId('project-reason')).toHaveText(reason)
  await row.click()
  await page.keyboard.press('Space')
  await expect(page.getByTestId('project-expanded')).toContainText(`! ${reason}`)
  expect(await horizontalOverflow(page)).toEqual({ sideways: false, spilling: [] })
  await layoutShot(page, 'trouble-row')
  await page.keyboard.press('Enter')
  const detail = page.getByTestId('session-trouble')
  await expect(detail).toHaveAttribute('data-kind', 'failing_command')
  await expect(detail).toHaveText(`! ${reason}`)
  await layoutShot(page, 'trouble-detail')
})

test('a permission request shows what is asked, in the agent’s words, and since when', async ({
  page,
}) => {
  await page.setViewportSize(POPOVER)
  const now = Date.now()
  const data = richData(now)
  const since = new Date(now - 3 * 60_000).toISOString()
  const projects = data.state.projects.map((p) =>
    p.name !== 'navi'
      ? p
      : {
          ...p,
          sessions: p.sessions.map((s) =>
            s.status !== 'needs_permission'
              ? s
              : {
                  ...s,
                  status_since: since,
                  pending_request: {
                    tool: 'Bash',
                    detail: 'npm test',
                    description: 'Run the parser tests\u202e again',
                    since,
                    request_id: null,
                    input_digest: null,
                    answer_until: null,
                  },
                },
          ),
        },
  )
  await openStubbedPopover(page, { ...data, state: { ...data.state, projects } })
  await page.locator('[data-testid="project-row"][data-project="navi"]').click()
  await page.keyboard.press('Enter')
  const request = page.getByTestId('pending-request')
  await expect(request).toHaveText('“Run the parser tests again” asked 3m ago')
  await layoutShot(page, 'permission-detail')
  // One session's requests held for an answer from here (as Away does for all).
  const hold = page.getByTestId('hold-toggle').first()
  await expect(hold).toHaveText('Answer its requests here')
  await hold.click()
  await expect(hold).toHaveText('Answering its requests here')
  const holds = (await recordedCalls(page)).filter((c) => c.channel === 'answering:set')
  expect(holds.map((c) => c.input)).toEqual([{ session_id: expect.any(String), on: true }])
})

test('a question to the PM: its answer, inert, and the action it offers', async ({ page }) => {
  await page.setViewportSize(POPOVER)
  await openStubbedPopover(page, richData(Date.now()))
  // Closed until asked for: it takes no room from the briefing.
  await expect(page.getByTestId('ask-input')).toHaveCount(0)
  await page.getByTestId('ask-toggle').click()
  const input = page.getByTestId('ask-input')
  await expect(input).toBeFocused()
  await input.fill('what did apollo do today?')
  // Typing is text, not the popover's keys (r would refresh the briefing, j/k would move).
  await input.press('Enter')
  await expect(page.getByTestId('ask-answer')).toHaveText(
    'About "what did apollo do today?": apollo has one commit today.',
  )
  // In view under the briefing, not scrolled away with it.
  await expect(page.getByTestId('ask-answer')).toBeInViewport()
  await expect(page.getByTestId('ask-action')).toBeInViewport()
  const calls = (await recordedCalls(page)).filter((c) => c.channel !== 'events:list')
  expect(calls.filter((c) => c.channel === 'pm:ask')).toEqual([
    { channel: 'pm:ask', input: { question: 'what did apollo do today?' } },
  ])
  expect(calls.some((c) => c.channel === 'briefing:refresh')).toBe(false)
  expect(await horizontalOverflow(page)).toEqual({ sideways: false, spilling: [] })
  await layoutShot(page, 'ask')
  await page.getByTestId('ask-action').click()
  await expect(page.getByTestId('project-detail')).toHaveAttribute('data-project', 'apollo')
})

test('an attention item is dismissed or snoozed from its row', async ({ page }) => {
  await page.setViewportSize(POPOVER)
  await openStubbedPopover(page, richData(Date.now()))
  const items = page.getByTestId('attention-item')
  await expect(items).toHaveCount(2)
  await expect(items.first().getByTestId('attention-dismiss')).toBeVisible()
  await layoutShot(page, 'attention-buttons')
  await items.first().getByTestId('attention-snooze').click()
  await expect(items).toHaveCount(1)
  await items.first().getByTestId('attention-dismiss').click()
  await expect(items).toHaveCount(0)
  const calls = (await recordedCalls(page)).filter((c) => c.channel === 'attention:dismiss')
  expect(calls.map((c) => c.input)).toEqual([
    { project: 'navi', title: 'Permission request pending', snooze_minutes: 60 },
    { project: 'apollo', title: 'All tasks done, create a PR?' },
  ])
})

test('suggestions show with their evidence, patterns with the digest lines they cite, all inert', async ({
  page,
}) => {
  await page.setViewportSize(POPOVER)
  const data = richData(Date.now())
  data.suggestions = [
    {
      kind: 'open_pr',
      project: 'apollo',
      title: 'PBI-8 Resolver is done: ready for a PR?',
      evidence: [
        'all 5 tasks of PBI-8 Resolver are done',
        'main is 3 commits ahead of origin/main\u202e',
        'no pull request is open for main',
      ],
      action: { type: 'open_project', project: 'apollo' },
      source: 'rule',
    },
  ]
  const briefing = data.briefing.state.briefing!
  briefing.output.patterns = [
    {
      project: 'navi',
      statement: 'third stall on integration tasks this week',
      cites: ['2026-11-20 navi', '2026-11-24 navi'],
    },
  ]
  await openStubbedPopover(page, data)
  const suggestion = page.getByTestId('suggestion')
  await expect(suggestion).toHaveCount(1)
  await expect(suggestion).toHaveAttribute('data-kind', 'open_pr')
  await expect(suggestion.getByTestId('suggestion-evidence')).toHaveText(
    'all 5 tasks of PBI-8 Resolver are done · main is 3 commits ahead of origin/main · no pull request is open for main',
  )
  await expect(page.getByTestId('pattern')).toContainText('(2026-11-20 navi, 2026-11-24 navi)')
  await layoutShot(page, 'suggestions')
  await suggestion.getByTestId('suggestion-action').click()
  await expect(page.getByTestId('project-detail')).toHaveAttribute('data-project', 'apollo')
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
  const zone = page.getByTestId('zone-events')
  const events = page.getByTestId('event-row')
  // The first page is 200; the rest comes as the list is scrolled near its end. The count shown says
  // that more are to come, and stops saying it once all are in.
  await expect(zone).toHaveAttribute('data-count', '200')
  await expect(zone.locator('.zone-count')).toHaveText('200+')
  await expect(events.first()).toHaveAttribute('data-project', 'apollo')
  const scroller = zone.locator('.zone-scroll')
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  await expect(zone).toHaveAttribute('data-count', '500')
  await expect(zone.locator('.zone-count')).toHaveText('500')
  // Only the rows in view (and a few around them) are in the page.
  expect(await events.count()).toBeLessThan(80)
  const times = await events.evaluateAll((els) =>
    els.map((el) => Date.parse(el.querySelector('time')?.getAttribute('datetime') ?? '')),
  )
  expect(times).toEqual([...times].sort((a, b) => b - a))
  expect(await scroller.evaluate((el) => el.scrollHeight > 5 * el.clientHeight)).toBe(true)
  // At the end of the list, the oldest event is drawn.
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  const oldest = data.events.at(-1)?.id
  await expect(page.locator(`[data-testid="event-row"][data-event="${oldest}"]`)).toBeVisible()
  await push(page, 'popover:navigate', { view: 'project', project: 'apollo' })
  await expect(page.getByTestId('project-detail')).toHaveAttribute('data-project', 'apollo')
  await page.keyboard.press('Backspace')
  await expect(page.getByTestId('zone-projects')).toBeVisible()
})

test('5,000 events: older pages come as the list is scrolled, and the cursor is followed past the drawn rows', async ({
  page,
}) => {
  await page.setViewportSize(POPOVER)
  const now = Date.now()
  const data = { ...richData(now), events: manyEvents(now, 5000) }
  await openStubbedPopover(page, data)
  const zone = page.getByTestId('zone-events')
  const scroller = zone.locator('.zone-scroll')
  await expect(zone).toHaveAttribute('data-count', '200')
  for (const count of ['700', '1200']) {
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    await expect(zone).toHaveAttribute('data-count', count)
  }
  expect(await page.getByTestId('event-row').count()).toBeLessThan(80)
  // The keyboard: back to the top, then far down; the cursor's row is always drawn and in view.
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
  await page.keyboard.press('Tab')
  await expect(zone).toHaveAttribute('data-active', 'true')
  for (let i = 0; i < 60; i++) await page.keyboard.press('j')
  const selected = page.locator('[data-testid="event-row"][aria-selected="true"]')
  await expect(selected).toHaveAttribute('data-event', data.events[60]?.id ?? '')
  await expect(selected).toBeInViewport()
  await layoutShot(page, 'events-5000')
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
