/**
 * A read-only command's answer computed in this process: a read-only runtime refreshed once and read,
 * with what the run read recorded so that its answers may be kept for the next command
 * (runtime/answer-cache/). Part of the CLI's engine side (engine-side.ts).
 */
import type { IpcOutput } from '../../shared/ipc-contract.ts'
import type { NaviRuntime } from '../runtime/index.ts'
import type { EnginePaths } from '../runtime/paths.ts'
import type { QueryChannel } from '../runtime/query-protocol.ts'
import { createCliRuntime } from './cli-runtime.ts'
import { traceAnswers, type AnswersCache, type Reader } from './reader.ts'

/**
 * Refreshes a read-only runtime of this process once and reads it; with a cache, records what the run
 * read and keeps its answers for the next command when they may be kept (runtime/answer-cache/).
 */
export async function computingReader<C extends QueryChannel>(
  paths: EnginePaths,
  first: { channel: C; input: Parameters<NaviRuntime['handlers'][C]>[0] },
  cache: AnswersCache | null,
): Promise<{ reader: Reader; answer: IpcOutput<C> }> {
  const keeper = cache ? await import('../runtime/answer-cache/kept-answers.ts') : null
  const recorder = keeper?.startRecordingInputs() ?? null
  const answers: Array<{ channel: string; input: unknown; output: unknown }> = []
  let runtime: NaviRuntime | null = null
  const read: Reader['read'] = async (channel, input) => {
    if (!runtime) throw new Error('the runtime is not running')
    const handler = runtime.handlers[channel] as (
      i: typeof input,
    ) => Promise<IpcOutput<typeof channel>>
    const output = await handler(input)
    answers.push({ channel, input, output })
    return output
  }
  const close = async (): Promise<void> => {
    const running = runtime
    if (!running) return
    runtime = null
    // Keeping answers is only about speed: whatever fails there fails no command.
    const clock = keeper
      ? await keeper.answersClock(running, paths, answers).catch((error: unknown) => {
          traceAnswers(`not kept: no horizon (${(error as Error).message})`)
          return null
        })
      : null
    let recording
    try {
      await running.stop()
    } finally {
      recording = recorder?.stop()
    }
    if (keeper && cache && recording && clock) {
      const unkept = await keeper
        .keepAnswers(cache, recording, answers, clock)
        .catch((error: unknown) => `cannot write them: ${(error as Error).message}`)
      traceAnswers(unkept === null ? 'kept for the next command' : `not kept: ${unkept}`)
    }
    // The next command asks a background runtime instead of computing again (background.ts).
    const idleMs = running.config.get().config.cli.backgroundIdleMs
    const started = await import('./background.ts')
      .then((background) => background.startBackground(paths, idleMs))
      .catch((error: unknown) => `failed: ${(error as Error).message}`)
    traceAnswers(`background runtime ${started}`)
    if (started.startsWith('failed')) running.logger.scope('background').warn(started)
  }
  try {
    runtime = await createCliRuntime({ paths, mode: 'once', pm: false })
    await runtime.start()
    return { reader: { read, close }, answer: await read(first.channel, first.input) }
  } catch (error) {
    try {
      await runtime?.stop()
    } finally {
      recorder?.stop()
    }
    throw error
  }
}
