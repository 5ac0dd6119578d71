/**
 * Acceptance: answering a real `claude`'s permission request from Navi, through Navi's waiting
 * PermissionRequest hook (opt-in: "away"). The claude TUI runs in tmux against the scripted API, with
 * Navi's hooks installed; a live Navi runtime (as `navi serve` hosts it) listens. Shown: an allow runs the
 * tool (its effect is on disk) and the session moves on; a deny with a message reaches the agent (it is
 * in the next request to the API); no answer within the wait leaves the agent's own dialog to decide and
 * approves nothing (a later explicit answer goes by the dialog's key); an answer to a request already
 * answered in the terminal is refused and changes nothing.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import type { Session } from '../../shared/schemas/session.ts'
import type { NaviRuntime } from '../../electron/runtime/index.ts'
import { answerLogPath } from '../../electron/runtime/answer-request.ts'
import type { NotificationSpec } from '../../electron/main/notifications/decide.ts'
import { createNotificationLoop } from '../../electron/main/notifications/notification-loop.ts'
import { hasTmux, killTmuxServer } from '../support/claude-driver.ts'
import { collectToolResults, text, toolUse } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'
import { answerOf, createAnswerWorld } from '../support/answer-world.ts'

const tmuxMissing = !hasTmux()
afterAll(() => killTmuxServer())

const DIALOG = /Do you want to proceed\?/

/** The session once Navi's hook holds its request open (answer_until set). */
async function heldRequest(runtime: NaviRuntime, dir: string): Promise<Session> {
  let seen: Session | undefined
  return waitUntil(
    async () => {
      await runtime.engine.refresh()
      seen = runtime.engine.getSessions().find((s) => s.cwd === dir)
      return seen?.pending_request?.answer_until ? seen : null
    },
    45_000,
    () => `Navi's hook to hold the request (last seen: ${JSON.stringify(seen?.pending_request)})`,
    100,
  )
}

/** The answer world with Away on, as the browser face hosts it. */
async function world(label: string, wait: string) {
  const w = await createAnswerWorld(label, { face: 'browser', wait })
  const away = await w.runtime.handlers['answering:set']({ on: true })
  expect(away).toMatchObject({ listening: true })
  return { ...w, start: () => w.startTui() }
}

async function statusOf(runtime: NaviRuntime, id: string): Promise<Session | undefined> {
  await runtime.engine.refresh()
  return runtime.engine.getSessions().find((s) => s.id === id)
}

describe.skipIf(tmuxMissing)(
  'answering a real claude from Navi (needs tmux; skipped where it is not installed)',
  () => {
    it('Allow from Navi: the tool runs, the session moves on, its notification is withdrawn, the answer is logged', async () => {
      const w = await world('allow', '120s')
      // The tray's notification loop, with a recorder in place of Electron's Notification.
      const shown: NotificationSpec[] = []
      const withdrawn: string[] = []
      const loop = createNotificationLoop({
        getSettings: () => w.runtime.settings.get(),
        isPopoverVisible: () => false,
        show: (spec) => shown.push(spec),
        withdraw: (tag) => withdrawn.push(tag),
      })
      const off = w.runtime.engine.subscribe((events, state) =>
        loop.handleEvents(events, state.projects),
      )
      try {
        w.api.enqueue(toolUse('Bash', { command: `touch ${w.outside}`, description: 'Mark it' }))
        w.api.enqueue(text('Marked.'))
        const claude = await w.start()
        await claude.send('please create the marker file')
        const session = await heldRequest(w.runtime, w.repo.dir)
        expect(session.pending_request).toMatchObject({
          tool: 'Bash',
          detail: `touch ${w.outside}`,
        })
        const result = await w.runtime.handlers['session:answer'](answerOf(session, 'allow'))
        expect(result.done).toBe(true)
        await waitUntil(() => existsSync(w.outside), 30_000, 'the tool to run')
        await waitUntil(
          async () => (await statusOf(w.runtime, session.id))?.status !== 'needs_permission',
          30_000,
          'the session to move on',
        )
        const log = (await readFile(answerLogPath(w.runtime.paths), 'utf8')).trim().split('\n')
        expect(JSON.parse(log.at(-1)!)).toMatchObject({
          decision: 'allow',
          by: 'browser',
          outcome: 'delivered',
          tool: 'Bash',
        })
        // The notification held the real call and Allow / Deny for it; answered, it is withdrawn.
        // The notification on screen when Allow was given (one redrawn as the hooks named the call).
        const asked = shown.filter((spec) => spec.tag === `session:${session.id}`).at(-1)
        expect(asked?.body).toContain(`Bash: touch ${w.outside}`)
        expect(asked?.answer?.request_id).toBe(session.pending_request?.request_id)
        await waitUntil(
          () => withdrawn.includes(`session:${session.id}`),
          30_000,
          'the notification to be withdrawn',
        )
      } finally {
        off()
        loop.stop()
        await w.cleanup()
      }
    })

    it('Deny with a message: the agent receives the message, and the tool never ran', async () => {
      const w = await world('deny', '120s')
      try {
        w.api.enqueue(toolUse('Bash', { command: `touch ${w.outside}`, description: 'Mark it' }))
        w.api.enqueue(text('Understood.'))
        const claude = await w.start()
        await claude.send('please create the marker file')
        const session = await heldRequest(w.runtime, w.repo.dir)
        const reason = 'Use make clean instead'
        const result = await w.runtime.handlers['session:answer'](answerOf(session, 'deny', reason))
        expect(result.done).toBe(true)
        const results = await waitUntil(
          () => {
            const found = collectToolResults(w.api.requests)
            return found.length > 0 ? found : null
          },
          30_000,
          'the tool result in the next request',
        )
        expect(JSON.stringify(results)).toContain(reason)
        expect(existsSync(w.outside)).toBe(false)
      } finally {
        await w.cleanup()
      }
    })

    it('no answer within the wait: nothing is approved, the dialog stays; a later answer goes by its key', async () => {
      // Long enough for a loaded machine to see the hook holding (at 3 s, a CI run with both cores busy
      // once saw only the give-up), short enough to see it give up.
      const w = await world('timeout', '10s')
      try {
        w.api.enqueue(toolUse('Bash', { command: `touch ${w.outside}`, description: 'Mark it' }))
        w.api.enqueue(text('Marked.'))
        const claude = await w.start()
        await claude.send('please create the marker file')
        const session = await heldRequest(w.runtime, w.repo.dir)
        await waitUntil(
          async () => {
            const s = await statusOf(w.runtime, session.id)
            return s?.pending_request && s.pending_request.answer_until === null
          },
          30_000,
          'the hook to stop waiting',
        )
        // The hook gave up: nothing was approved, the agent's own dialog still asks.
        await claude.waitForScreen(DIALOG, 30_000)
        expect(existsSync(w.outside)).toBe(false)
        expect((await statusOf(w.runtime, session.id))?.status).toBe('needs_permission')
        // An explicit answer afterwards is still an answer to that request: typed into its dialog.
        const late = await w.runtime.handlers['session:answer'](answerOf(session, 'allow'))
        expect(late.done).toBe(true)
        await waitUntil(() => existsSync(w.outside), 30_000, 'the tool to run')
        const log = (await readFile(answerLogPath(w.runtime.paths), 'utf8')).trim().split('\n')
        expect(JSON.parse(log.at(-1)!)).toMatchObject({ path: 'tmux', outcome: 'delivered' })
      } finally {
        await w.cleanup()
      }
    })

    it('answered in the terminal first: a stale answer from Navi is refused and changes nothing', async () => {
      const w = await world('stale', '120s')
      try {
        w.api.enqueue(toolUse('Bash', { command: `touch ${w.outside}`, description: 'Mark it' }))
        w.api.enqueue(text('Marked.'))
        const claude = await w.start()
        await claude.send('please create the marker file')
        const session = await heldRequest(w.runtime, w.repo.dir)
        // The dialog does not wait for Navi's hook: the user at the terminal answers Yes.
        await claude.waitForScreen(DIALOG, 30_000)
        // A new dialog ignores keys for a moment (against keys typed for what came before): press
        // 1 while it is still on screen, until the tool ran.
        await waitUntil(
          async () => {
            if (existsSync(w.outside)) return true
            if (DIALOG.test(await claude.capture())) await claude.sendKeys('1')
            return false
          },
          30_000,
          'the tool to run',
          500,
        ).catch(async (error: unknown) => {
          throw new Error(`${String(error)}; screen:\n${await claude.capture()}`)
        })
        await waitUntil(
          async () => (await statusOf(w.runtime, session.id))?.status !== 'needs_permission',
          30_000,
          'Navi to see the request answered',
        )
        const stale = await w.runtime.handlers['session:answer'](
          answerOf(session, 'deny', 'too late'),
        )
        expect(stale.done).toBe(false)
        expect(stale.message).toMatch(/no permission request is pending|stale answer/)
        await waitUntil(() => w.api.requests.length >= 2, 30_000, 'the turn to go on')
        expect(JSON.stringify(collectToolResults(w.api.requests))).not.toContain('too late')
      } finally {
        await w.cleanup()
      }
    })
  },
)
