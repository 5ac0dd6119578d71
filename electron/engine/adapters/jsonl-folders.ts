/** The folds a fold worker can run, by name: a worker cannot be handed functions, only a name. */
import type { TranscriptSummary } from '../core/source-records.ts'
import { encodeTranscriptSummary, reviveTranscriptSummary } from '../core/transcript-encoding.ts'
import { claudeTranscriptFolder } from './transcript-folder.ts'

export const FOLDERS = {
  'claude-transcript': claudeTranscriptFolder,
} as const

export type FolderName = keyof typeof FOLDERS

/**
 * How each fold's summary is encoded for the index (zod-free: a worker encodes what it folded, the engine
 * revives it). A worker hands back that text, which is also the file's entry in the index.
 */
export const FOLDER_ENCODINGS: {
  [name in FolderName]: {
    encode(summary: TranscriptSummary): unknown
    revive(data: unknown, path: string): TranscriptSummary | null
  }
} = {
  'claude-transcript': { encode: encodeTranscriptSummary, revive: reviveTranscriptSummary },
}
