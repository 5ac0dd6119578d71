/**
 * A fold worker: folds whole JSONL files on a thread of its own, one job at a time, and posts back each
 * summary encoded as the index keeps it, where its tail stood, and what it met. Started
 * by fold-pool.ts for a cold index; the engine's thread folds only what is appended after that.
 */
import { parentPort } from 'node:worker_threads'
import { errorText } from '../../../shared/log.ts'
import type { FoldJob, FoldOutcome } from './fold-pool.ts'
import { createJsonlTail } from './jsonl-tail.ts'
import { FOLDER_ENCODINGS, FOLDERS } from './jsonl-folders.ts'
import { asciiJsonText } from '../core/ascii-json.ts'

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
      // Encoded here, in parallel: the engine's thread no longer encodes (nor structured-clones) 500
      // summaries at the end of a cold index, and writes this very text to the index.
      summaryJson: asciiJsonText(FOLDER_ENCODINGS[job.folder].encode(state as never)),
      position: tail.position(),
      corrupt: result.corrupt,
      bytesRead: result.bytesRead,
    }
  } catch (error) {
    return { id: job.id, ok: false, error: errorText(error) }
  }
}

/** The pool's end: the thread's port, or, in a process of its own (fold-pool.ts), its IPC channel. */
const port: {
  post(outcome: FoldOutcome): void
  onJob(listener: (job: FoldJob) => void): void
} | null = parentPort
  ? {
      post: (outcome) => parentPort?.postMessage(outcome),
      onJob: (listener) => void parentPort?.on('message', listener),
    }
  : process.send
    ? {
        post: (outcome) => void process.send?.(outcome),
        onJob: (listener) => void process.on('message', listener),
      }
    : null

// One job at a time, in the order given: the pool hands over the next job before this one is answered.
let done: Promise<void> = Promise.resolve()
port?.onJob((job) => {
  done = done.then(async () => {
    const outcome = await foldWholeFile(job)
    try {
      port.post(outcome)
    } catch (error) {
      // A summary that cannot be posted: the job fails (the engine folds that file itself), the next go on.
      port.post({ id: job.id, ok: false, error: errorText(error) })
    }
  })
})
// A process of its own ends with the pool: when the engine's process is gone, its channel closes.
process.on('disconnect', () => process.exit(0))
