/**
 * The browser twin's transport with the server replaced by routes: without `window.api` the popover calls
 * `POST /api/call/<channel>` and listens on one `EventSource('/api/stream')`; a failed call shows its error.
 * The real server is covered by app.spec.ts; this pins the transport's own behavior.
 */
import { test, expect } from '@playwright/test'
import { serveBuiltRenderer, STUB_ORIGIN } from './support/api-stub.ts'
import { richData } from './support/layout-fixtures.ts'

test('without window.api the popover talks HTTP + SSE', async ({ page }) => {
  const now = Date.now()
  const data = richData(now)
  const answers: Record<string, unknown> = {
    'state:get': data.state,
    'briefing:get': data.briefing,
    'settings:get': data.settings,
    'tools:get': data.tools,
    'briefing:refresh': { done: false, message: 'A PM run is already in progress' },
  }
  const calls: { channel: string; method: string; body: string | null; type: string | null }[] = []
  let streams = 0

  await serveBuiltRenderer(page)
  await page.route(`${STUB_ORIGIN}/api/call/*`, async (route) => {
    const request = route.request()
    const channel = decodeURIComponent(new URL(request.url()).pathname.split('/').pop() ?? '')
    calls.push({
      channel,
      method: request.method(),
      body: request.postData(),
      type: request.headers()['content-type'] ?? null,
    })
    if (channel === 'events:list') return route.fulfill({ status: 401, body: 'unauthorized' })
    await route.fulfill({ json: { ok: true, data: answers[channel] } })
  })
  const pushed = { ...data.events[0], id: 'pushed', project: 'pushed-project' }
  const newerState = {
    ...data.state,
    generated_at: new Date(now + 1000).toISOString(),
    projects: data.state.projects.slice(0, 2),
  }
  await page.route(`${STUB_ORIGIN}/api/stream`, async (route) => {
    streams++
    await route.fulfill({
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: [
        'retry: 600000',
        '',
        'event: events:appended',
        `data: ${JSON.stringify([pushed])}`,
        '',
        'event: state:changed',
        `data: ${JSON.stringify(newerState)}`,
        '',
        '',
      ].join('\n'),
    })
  })

  await page.goto(`${STUB_ORIGIN}/`)
  await expect(page.getByTestId('app')).toHaveAttribute('data-transport', 'http')
  await expect(page.getByTestId('event-row').first()).toHaveAttribute(
    'data-project',
    'pushed-project',
  )
  await expect(page.getByTestId('project-row')).toHaveCount(2)
  await expect(page.getByTestId('briefing-text')).toContainText('Apollo finished PBI-8')
  await expect(page.getByTestId('engine-errors')).toContainText('Not signed in')

  await page.keyboard.press('r')
  await expect(page.getByTestId('notice')).toHaveText(/A PM run is already in progress/)

  expect(streams).toBe(1)
  const byChannel = new Map(calls.map((c) => [c.channel, c]))
  expect(byChannel.get('state:get')).toMatchObject({ method: 'POST', body: null })
  expect(byChannel.get('events:list')).toMatchObject({
    method: 'POST',
    body: '{"limit":200}',
    type: 'application/json',
  })
  expect(byChannel.has('briefing:refresh')).toBe(true)
})

test('after the push stream reconnects, state, briefing and events are loaded again', async ({
  page,
}) => {
  const now = Date.now()
  const data = richData(now)
  const missed = { ...data.events[0], id: 'missed', project: 'missed-while-away' }
  const calls: string[] = []
  let reconnected = false
  const answer = (channel: string): unknown => {
    // What changed while the stream was down: one project left, a new event, a newer briefing.
    if (channel === 'state:get')
      return reconnected ? { ...data.state, projects: data.state.projects.slice(0, 1) } : data.state
    if (channel === 'events:list')
      return { events: reconnected ? [missed, ...data.events] : data.events, has_more: false }
    if (channel === 'briefing:get') {
      const briefing = data.briefing.state.briefing
      if (!reconnected || !briefing) return data.briefing
      const output = { ...briefing.output, briefing: 'Written while you were disconnected.' }
      return {
        ...data.briefing,
        state: { ...data.briefing.state, briefing: { ...briefing, output } },
      }
    }
    return { 'settings:get': data.settings, 'tools:get': data.tools }[channel]
  }

  await serveBuiltRenderer(page)
  await page.route(`${STUB_ORIGIN}/api/call/*`, async (route) => {
    const channel = decodeURIComponent(
      new URL(route.request().url()).pathname.split('/').pop() ?? '',
    )
    calls.push(channel)
    await route.fulfill({ json: { ok: true, data: answer(channel) } })
  })
  let streams = 0
  await page.route(`${STUB_ORIGIN}/api/stream`, async (route) => {
    streams++
    reconnected = streams > 1
    // The first stream ends at once (a restarted server): EventSource retries after 100 ms. The second
    // stays "down" afterwards for ten minutes, so exactly one reconnect happens.
    await route.fulfill({
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: streams === 1 ? 'retry: 100\n\n' : 'retry: 600000\n\n',
    })
  })

  await page.goto(`${STUB_ORIGIN}/`)
  await expect(page.getByTestId('app')).toHaveAttribute('data-transport', 'http')
  await expect(page.getByTestId('event-row').first()).toHaveAttribute(
    'data-project',
    'missed-while-away',
  )
  await expect(page.getByTestId('project-row')).toHaveCount(1)
  await expect(page.getByTestId('briefing-text')).toHaveText('Written while you were disconnected.')
  expect(streams).toBe(2)
  const count = (channel: string) => calls.filter((c) => c === channel).length
  expect([count('state:get'), count('events:list'), count('briefing:get')]).toEqual([2, 2, 2])
})
