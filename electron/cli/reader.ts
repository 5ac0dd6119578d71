/**
 * How a read-only command gets its answer: from the Navi running with this home (a socket round trip),
 * else from a read-only runtime of this process, refreshed once.
 */
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { IpcOutput } from '../../shared/ipc-contract.ts'
import type { NaviRuntime } from '../runtime/index.ts'
import type { EnginePaths } from '../runtime/paths.ts'
import { askRunningNavi, askRunningNaviForText } from '../runtime/query-client.ts'
import type { QueryChannel } from '../runtime/query-protocol.ts'
import { printErr } from './output.ts'
import { codeCacheState } from './code-cache-state.ts'
import { answerKey, answersFile, freshAnswers } from '../runtime/answer-cache/answer-cache.ts'
import { naviFiles } from '../runtime/paths.ts'
import { EVENTS_PAGE_MAX } from '../../shared/events-page-size.ts'
import { eventsTextIn } from '../../shared/events-text.ts'

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
  /** The running build, which keys the answer cache (null: no cache). @default the bundle's */
  build: string | null = codeCacheState()?.build ?? null,
): Promise<{ reader: Reader; answer: IpcOutput<C> }> {
  const asked = await askRunningNavi(paths, first.channel, first.input)
  if (asked.ok) {
    traceAnswers('from the running Navi')
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
  // The sources run through tsx have no build to key answers by, and change under them: no cache.
  const cache =
    build === null || process.env.NAVI_NO_ANSWER_CACHE === '1'
      ? null
      : { cacheDir: naviFiles(paths).cacheDir, key: answerKey(build, process.env) }
  if (cache) {
    const file = answersFile(cache.cacheDir, first.channel, first.input)
    const found = freshAnswers(file, cache.key, Date.now())
    // Another question's answers under this one's name (a hash's collision, a hand's edit) hold nothing.
    const holds = found.fresh && findAnswer(found.saved.answers, first.channel, first.input)
    traceAnswers(
      holds ? `from ${file}` : `computed (${found.fresh ? 'another question' : found.reason})`,
    )
    if (found.fresh && holds) return savedReader(paths, found.saved, first, cache)
  }
  return computingReader(paths, first, cache)
}

/** Where answers are kept, and the key they are kept under (answer-cache.ts). */
export interface AnswersCache {
  cacheDir: string
  key: string
}

type Answers = ReadonlyArray<{ channel: string; input: unknown; output: unknown }>

/** The answer to `channel` with `input` among `answers`. */
function findAnswer(
  answers: Answers,
  channel: string,
  input: unknown,
): { output: unknown } | undefined {
  const asked = JSON.stringify(input ?? null)
  return answers.find((a) => a.channel === channel && JSON.stringify(a.input ?? null) === asked)
}

/**
 * Answers of a run before that still hold. A question that run was not asked (`status --json` asks less
 * than `status`) is computed here, with the first one again, and both are kept for the next command.
 */
function savedReader<C extends QueryChannel>(
  paths: EnginePaths,
  saved: { answers: Answers },
  first: { channel: C; input: Parameters<NaviRuntime['handlers'][C]>[0] },
  cache: AnswersCache,
): { reader: Reader; answer: IpcOutput<C> } {
  const find = (channel: string, input: unknown) => findAnswer(saved.answers, channel, input)
  let computing: Promise<{ reader: Reader }> | null = null
  const reader: Reader = {
    async read(channel, input) {
      const found = find(channel, input)
      if (found) return found.output as IpcOutput<typeof channel>
      computing ??= computingReader(paths, first, cache)
      return (await computing).reader.read(channel, input)
    },
    close: async () => {
      if (computing) await (await computing).reader.close()
    },
  }
  return { reader, answer: find(first.channel, first.input)?.output as IpcOutput<C> }
}

/**
 * Computes the answer in this process: the engine's part of the CLI (engine-side.ts), which the built
 * CLI loads only now (scripts/cli-bundle.ts).
 */
async function computingReader<C extends QueryChannel>(
  paths: EnginePaths,
  first: { channel: C; input: Parameters<NaviRuntime['handlers'][C]>[0] },
  cache: AnswersCache | null,
): Promise<{ reader: Reader; answer: IpcOutput<C> }> {
  const { computeAnswers } = await import('./engine-side.ts')
  return computeAnswers(paths, first, cache)
}

/** With NAVI_ANSWER_CACHE_TRACE=1, where each answer came from and why (stderr). */
export function traceAnswers(text: string): void {
  if (process.env.NAVI_ANSWER_CACHE_TRACE === '1') printErr(`navi: answers ${text}`)
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

type EventsQuery = { since: string | undefined; project: string | undefined }

const eventsPageInput = (query: EventsQuery, before: string | undefined) => ({
  limit: EVENTS_PAGE_MAX,
  ...(before ? { before } : {}),
  ...(query.since ? { since: query.since } : {}),
  ...(query.project ? { project: query.project } : {}),
})

/**
 * `navi events`' lines as the running Navi writes them (shared/events-text.ts); or the events it answered
 * instead (it writes other lines: another build's, another time zone's), when they fit one page, for the
 * command to write its lines; or null (none runs, it failed, more pages): the command reads them
 * (allEvents).
 */
export async function eventsAsLines(
  paths: EnginePaths,
  query: EventsQuery,
): Promise<{ lines: string } | { events: EngineEvent[] } | null> {
  const asked = await askRunningNaviForText(
    paths,
    'events:list',
    eventsPageInput(query, undefined),
    eventsTextIn(process.env.TZ ?? null),
  )
  if (!asked.ok) return null
  if ('text' in asked) {
    traceAnswers('from the running Navi, as its lines')
    return { lines: asked.text }
  }
  if (asked.data.has_more) return null
  traceAnswers('from the running Navi')
  return { events: asked.data.events }
}

/** Every page of `events:list`, newest first: one page, unless the log holds more than a busy day. */
export async function allEvents(paths: EnginePaths, query: EventsQuery): Promise<EngineEvent[]> {
  const pageInput = (before: string | undefined) => eventsPageInput(query, before)
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
