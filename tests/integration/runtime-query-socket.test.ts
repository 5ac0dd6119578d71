/**
 * Which running Navi answers the commands on the query socket: the first one started; when it stops, one
 * still running takes the socket over, so commands keep asking a Navi (and none computes, or starts a
 * background runtime beside it) while any runs.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { expect, it } from 'vitest'
import { askRunningNavi } from '../../electron/runtime/query-client.ts'
import { querySocketPath } from '../../electron/runtime/query-protocol.ts'
import { createNaviRuntime } from '../../electron/runtime/index.ts'
import { createNaviEnv, enginePathsOf } from '../support/navi-cli.ts'
import { waitUntil } from '../support/wait.ts'

it('a running Navi takes the query socket over when the one answering stops; nobody answers after both', async () => {
  const env = await createNaviEnv()
  const paths = enginePathsOf(env)
  const socket = querySocketPath(paths)
  if (socket === null) throw new Error('the temp home is too deep for a socket')
  const first = await createNaviRuntime({ paths, mode: 'live', pm: false })
  const second = await createNaviRuntime({ paths, mode: 'live', pm: false })
  try {
    await first.start()
    await second.start()
    expect(first.servesQueries()).toBe(true)
    expect(second.servesQueries()).toBe(false)
    await first.stop()
    await waitUntil(() => second.servesQueries(), 20_000, 'the second Navi to answer', 100)
    const asked = await askRunningNavi(paths, 'sessions:list', { all: true })
    expect(asked).toMatchObject({ ok: true })
    await second.stop()
    expect(existsSync(socket)).toBe(false)
  } finally {
    await second.stop()
    await first.stop()
    await rm(env.NAVI_HOME, { recursive: true, force: true })
  }
})
