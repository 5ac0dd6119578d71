/** The folds a fold worker can run, by name: a worker cannot be handed functions, only a name. */
import { claudeTranscriptFolder } from './transcript-folder.ts'

export const FOLDERS = {
  'claude-transcript': claudeTranscriptFolder,
} as const

export type FolderName = keyof typeof FOLDERS
