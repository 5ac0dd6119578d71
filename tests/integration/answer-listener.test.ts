/**
 * Which Navi listens for answers (`$NAVI_HOME/answers/listener`): the one started last; when it stops, one
 * still running takes it back, so Navi's hook keeps holding requests while any Navi runs, and stops once
 * none does.
 */
import { rm } from 'node:fs/promises'
import { expect, it } from 'vitest'
import { answersDir, readOptIn } from '../../electron/engine/adapters/answers-dir.ts'
import { createNaviRuntime } from '../../electron/runtime/index.ts'
import { createNaviEnv, enginePathsOf } from '../support/navi-cli.ts'
import { waitUntil } from '../support/wait.ts'

it('a running Navi takes the listener back when the one that took it stops; none listens after both', async () => {
  const env = await createNaviEnv()
  const paths = enginePathsOf(env)
  const dir = answersDir(paths.naviHome)
  const first = await createNaviRuntime({ paths, mode: 'live', pm: false })
  const second = await createNaviRuntime({ paths, mode: 'live', pm: false })
  try {
    await first.start()
    expect(readOptIn(dir).listening).toBe(true)
    await second.start()
    await second.stop()
    // The second one's mark went with it (same process here, so checked by the file, not the pid).
    await waitUntil(() => readOptIn(dir).listening, 20_000, 'the first Navi to listen again', 200)
    await first.stop()
    expect(readOptIn(dir).listening).toBe(false)
  } finally {
    await second.stop()
    await first.stop()
    await rm(env.NAVI_HOME, { recursive: true, force: true })
  }
})
