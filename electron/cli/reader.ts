/**
 * How a read-only command gets its answer: from the Navi running with this home (a socket round trip),
 * else from a read-only runtime of this process, refreshed once.
 */
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { IpcOutput } from '../../shared/ipc-contract.ts'
import type { NaviRuntime } from '../runtime/index.ts'
import type { EnginePaths } from '../runtime/paths.ts'
import { askRunningNavi } from '../runtime/query-client.ts'
import type { QueryChannel } from '../runtime/query-protocol.ts'
import { printErr } from './output.ts'
import { createCliRuntime } from './cli-runtime.ts'

/** Answers read-only channels, from a running Navi or from a runtime of this process. */
export interface Reader {
  read<C extends QueryChannel>(
    channel: C,
    input: Parameters<NaviRuntime['handlers'][C]>[0],
  ): Promise<IpcOutput<C>>
  close(): Promise<void>
}

/**
 * A reader that asks the Navi running with this home when there is one (it keeps its state current, so
 * the answer costs a socket round trip), else refreshes a read-only runtime of this process once and
 * reads it. Repositories are read with git as a running engine reads them: when their refs or index
 * changed since the last read (any process's: repo-marks.ts) or an agent was active in them since.
 */
export async function openReader<C extends QueryChannel>(
  paths: EnginePaths,
  first: { channel: C; input: Parameters<NaviRuntime['handlers'][C]>[0] },
): Promise<{ reader: Reader; answer: IpcOutput<C> }> {
  const asked = await askRunningNavi(paths, first.channel, first.input)
  if (asked.ok) {
    const remote: Reader = {
      async read(channel, input) {
        const next = await askRunningNavi(paths, channel, input)
        if (next.ok) return next.data
        throw new Error(`the running Navi stopped answering: ${next.reason}`)
      },
      close: async () => undefined,
    }
    return { reader: remote, answer: asked.data }
  }
  if (asked.reason === 'failed')
    printErr(`navi: the running Navi did not answer (${asked.message}); reading here instead`)
  const runtime = await createCliRuntime({ paths, mode: 'once', pm: false })
  const local: Reader = {
    read(channel, input) {
      const handler = runtime.handlers[channel] as (
        i: typeof input,
      ) => Promise<IpcOutput<typeof channel>>
      return handler(input)
    },
    close: () => runtime.stop(),
  }
  try {
    await runtime.start()
    return { reader: local, answer: await local.read(first.channel, first.input) }
  } catch (error) {
    await runtime.stop()
    throw error
  }
}

/** The answer of one read-only channel (see openReader). */
export async function readOnce<C extends QueryChannel>(
  paths: EnginePaths,
  channel: C,
  input: Parameters<NaviRuntime['handlers'][C]>[0],
): Promise<IpcOutput<C>> {
  const { reader, answer } = await openReader(paths, { channel, input })
  await reader.close()
  return answer
}

/** Every page of `events:list`, newest first. */
export async function allEvents(
  paths: EnginePaths,
  query: { since: string | undefined; project: string | undefined },
): Promise<EngineEvent[]> {
  const pageInput = (before: string | undefined) => ({
    limit: 1000,
    ...(before ? { before } : {}),
    ...(query.since ? { since: query.since } : {}),
    ...(query.project ? { project: query.project } : {}),
  })
  const opened = await openReader(paths, {
    channel: 'events:list',
    input: pageInput(undefined),
  })
  try {
    const events: EngineEvent[] = []
    let page = opened.answer
    for (;;) {
      events.push(...page.events)
      const before = page.events.at(-1)?.timestamp
      if (!page.has_more || before === undefined) return events
      page = await opened.reader.read('events:list', pageInput(before))
    }
  } finally {
    await opened.reader.close()
  }
}
