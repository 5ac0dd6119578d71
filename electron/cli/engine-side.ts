/**
 * The CLI's engine side: everything past the read-only commands' front (read-commands.ts), and those
 * commands' answers when they must be computed. The built CLI is two files (scripts/cli-bundle.ts): the
 * front, which answers from a running Navi or from the answers the last command kept, and this side,
 * loaded (with a code cache of its own, launcher.ts) only by a command that needs the engine. Each file
 * holds its own copy of the modules both use: what crosses between them is only what this module
 * exports, and each sets up its own (zod's parsers, the output's state).
 */
import type { IpcOutput } from '../../shared/ipc-contract.ts'
import type { NaviRuntime } from '../runtime/index.ts'
import type { EnginePaths } from '../runtime/paths.ts'
import type { QueryChannel } from '../runtime/query-protocol.ts'
import type { AnswersCache, Reader } from './reader.ts'
import { runsUntilStopped } from './command-kind.ts'

export { exitCodeOfOutput } from './output.ts'

let prepared: Promise<void> | null = null

/**
 * zod without its compiled parsers for a command that answers and exits (zod-jitless.ts): this side's own
 * zod, set before any of its schemas is made.
 */
function prepare(): Promise<void> {
  prepared ??= runsUntilStopped(process.argv.slice(2))
    ? Promise.resolve()
    : import('./zod-jitless.ts').then((jitless) => jitless.parseWithoutJit())
  return prepared
}

/** Runs one `navi` command (main.ts) and resolves with its exit code. */
export async function runCli(argv: string[]): Promise<number> {
  await prepare()
  return (await import('./main.ts')).runCli(argv)
}

/** A read-only command's answer computed in this process (computing-reader.ts). */
export async function computeAnswers<C extends QueryChannel>(
  paths: EnginePaths,
  first: { channel: C; input: Parameters<NaviRuntime['handlers'][C]>[0] },
  cache: AnswersCache | null,
): Promise<{ reader: Reader; answer: IpcOutput<C> }> {
  await prepare()
  return (await import('./computing-reader.ts')).computingReader(paths, first, cache)
}
