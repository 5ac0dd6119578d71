/**
 * Limits of task data, apart from the zod schemas so that code which only folds transcripts (the fold
 * workers) does not load zod.
 */

/** How many moves a task list keeps: enough for any gap between two engine cycles. */
export const MAX_TASK_MOVES = 40
