/**
 * Playwright fixtures over the real `navi serve`: `import { test, expect } from './support/navi-serve.ts'`.
 * `navi` (one per worker: building it runs real claude sessions and a real PM run) is the hermetic
 * world of `navi-world.ts` with `navi serve --port 0 --json` running over it, ready once the PM's first
 * briefing and a commit event of every project are there. `openApp` loads the printed URL (token → cookie
 * → `/`) in the test's page. `shot(page, name)` saves `test-results/screenshots/app-<name>.png`.
 * Teardown is guaranteed: serve's process group, the tmux server, the APIs and the temp dirs.
 */
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import type { BriefingView, EventsPage } from '../../../shared/ipc-contract.ts'
import { waitUntil } from '../../support/wait.ts'
import { createNaviWorld, PROJECT_NAMES, type NaviWorld } from './navi-world.ts'
import { assertRendererBuilt, REPO_ROOT, startNaviServe, type NaviServe } from './serve-process.ts'

export { expect }

export const SCREENSHOT_DIR = resolve(REPO_ROOT, 'test-results/screenshots')

export interface NaviFixture extends NaviWorld {
  serve: NaviServe
}

/** Saves a full-page screenshot under test-results/screenshots/ and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = resolve(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

async function waitForWorldReady(serve: NaviServe): Promise<void> {
  let last = ''
  await waitUntil(
    async () => {
      const view = await serve.call<BriefingView>('briefing:get')
      last = JSON.stringify(view).slice(0, 400)
      return view.ok && view.data.state.briefing !== null
    },
    90_000,
    () => `the PM's first briefing (last briefing:get: ${last}; serve stderr: ${serve.stderr()})`,
    500,
  )
  await waitUntil(
    async () => {
      const page = await serve.call<EventsPage>('events:list', { limit: 200 })
      if (!page.ok) return false
      const seen = new Set(
        page.data.events.filter((e) => e.type === 'commit').map((e) => e.project),
      )
      return PROJECT_NAMES.every((n) => seen.has(n))
    },
    30_000,
    () => `a commit event of every project (serve stderr: ${serve.stderr()})`,
    250,
  )
}

export const test = base.extend<{ openApp: () => Promise<Page> }, { navi: NaviFixture }>({
  navi: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring argument
    async ({}, use) => {
      await assertRendererBuilt()
      const world = await createNaviWorld()
      let serve: NaviServe | null = null
      try {
        serve = await startNaviServe({ env: world.serveEnv })
        // Commits while serve watches: real commit events for every project.
        for (const name of PROJECT_NAMES)
          await world.repos[name].commit(`${name}: first change under watch`, {
            'CHANGELOG.md': `- ${name} started\n`,
          })
        await waitForWorldReady(serve)
        await use({ ...world, serve })
      } finally {
        await serve?.stop()
        await world.cleanup()
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  openApp: async ({ page, navi }, use) => {
    await use(async () => {
      await page.goto(navi.serve.url)
      await expect(page.getByTestId('app')).toBeVisible()
      return page
    })
  },
})
