/**
 * A fold worker: folds whole JSONL files on a thread of its own, one job at a time, and posts back each
 * summary (Maps and Sets survive the structured clone), where its tail stood, and what it met. Started
 * by fold-pool.ts for a cold index; the engine's thread folds only what is appended after that.
 */
import { parentPort } from 'node:worker_threads'
import { errorText } from '../../../shared/log.ts'
import type { FoldJob, FoldOutcome } from './fold-pool.ts'
import { createJsonlTail } from './jsonl-tail.ts'
import { FOLDERS } from './jsonl-folders.ts'

async function foldWholeFile(job: FoldJob): Promise<FoldOutcome> {
  const folder = FOLDERS[job.folder]
  const summary = folder.create(job.path)
  const tail = createJsonlTail(job.path)
  let state = summary
  try {
    const result = await tail.readNew({
      blocking: true,
      onReset: () => {
        state = folder.create(job.path)
      },
      onLine: (line) => folder.fold(state, line),
      ...(folder.parseLine ? { parseLine: folder.parseLine } : {}),
      ...(folder.skipLine ? { skipLine: folder.skipLine } : {}),
    })
    state.corruptLines += result.corrupt
    return {
      id: job.id,
      ok: true,
      summary: state,
      position: tail.position(),
      corrupt: result.corrupt,
      bytesRead: result.bytesRead,
    }
  } catch (error) {
    return { id: job.id, ok: false, error: errorText(error) }
  }
}

// One job at a time, in the order given: the pool hands over the next job before this one is answered.
let done: Promise<void> = Promise.resolve()
parentPort?.on('message', (job: FoldJob) => {
  done = done.then(async () => {
    const outcome = await foldWholeFile(job)
    try {
      parentPort?.postMessage(outcome)
    } catch (error) {
      // A summary that cannot be posted: the job fails (the engine folds that file itself), the next go on.
      parentPort?.postMessage({
        id: job.id,
        ok: false,
        error: errorText(error),
      } satisfies FoldOutcome)
    }
  })
})
