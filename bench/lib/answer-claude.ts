/**
 * The real-claude part of bench/answer-latency.ts: one claude TUI in tmux (classic dialog) against the
 * scripted API, Navi's hooks installed, a live runtime listening with Away on, and the tray's
 * notification loop with a recorder. Each round asks for one Bash call, then allows it from Navi.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { createNotificationLoop } from '../../electron/main/notifications/notification-loop.ts'
import { answerOf, createAnswerWorld } from '../../tests/support/answer-world.ts'
import { killTmuxServer } from '../../tests/support/claude-driver.ts'
import { text, toolUse } from '../../tests/support/scripted-api.ts'
import { waitUntil } from '../../tests/support/wait.ts'

export async function measureWithClaude(
  rounds: number,
): Promise<{ toNotification: number[]; toEffect: number[] }> {
  const world = await createAnswerWorld('bench')
  const { repo, api, runtime } = world
  await runtime.handlers['answering:set']({ on: true })
  const shown = new Map<string, number>()
  const loop = createNotificationLoop({
    getSettings: () => runtime.settings.get(),
    isPopoverVisible: () => false,
    show: (spec) => {
      if (spec.answer) shown.set(spec.answer.request_id, Date.now())
    },
    withdraw: () => undefined,
  })
  const off = runtime.engine.subscribe((events, state) => loop.handleEvents(events, state.projects))
  const tui = await world.startTui()
  const toNotification: number[] = []
  const toEffect: number[] = []
  try {
    for (let round = 0; round < rounds; round++) {
      const marker = `/tmp/navi-answer-bench-${String(process.pid)}-${String(round)}`
      await rm(marker, { force: true })
      api.enqueue(toolUse('Bash', { command: `touch ${marker}`, description: 'Mark it' }))
      api.enqueue(text('Marked.'))
      await tui.send(`please create marker ${String(round)}`)
      const session = await waitUntil(
        () => {
          const s = runtime.engine.getSessions().find((x) => x.cwd === repo.dir)
          const id = s?.pending_request?.request_id
          return s?.pending_request?.answer_until && id && shown.has(id) ? s : null
        },
        60_000,
        'the held request and its notification',
        5,
      )
      const pending = session.pending_request!
      toNotification.push((shown.get(pending.request_id!) ?? 0) - Date.parse(pending.since ?? ''))
      const clicked = Date.now()
      await runtime.handlers['session:answer'](answerOf(session, 'allow'))
      await waitUntil(() => existsSync(marker), 30_000, 'the tool to run', 5)
      toEffect.push(Date.now() - clicked)
      await rm(marker, { force: true })
      await waitUntil(
        () => runtime.engine.getSessions().find((x) => x.cwd === repo.dir)?.status === 'idle',
        60_000,
        'the turn to end',
        50,
      )
    }
  } finally {
    off()
    loop.stop()
    await world.cleanup()
    await killTmuxServer()
  }
  return { toNotification, toEffect }
}
