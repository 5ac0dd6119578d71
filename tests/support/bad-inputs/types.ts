/** One row of the bad-input table, and what a case's run printed, parsed. */
import type { EngineState } from '../../../shared/schemas/state.ts'
import type { DoctorOutput, SessionsOutput } from '../../../shared/schemas/cli.ts'
import type { CaseContext } from './context.ts'

/** The commands' JSON outputs (null when off-contract) and human outputs, of one case. */
export interface CaseOutput {
  status: EngineState | null
  sessions: SessionsOutput | null
  doctor: DoctorOutput | null
  /** Everything the six commands printed, JSON and human, stdout and stderr. */
  allText: string
}

export interface BadInput {
  /** Where the bad input goes (a file Navi reads, a repository…). */
  group: string
  name: string
  plant(ctx: CaseContext): Promise<void>
  /** What status or doctor must say about it (usually the file's name): bad input is never silent. */
  reported?: (ctx: CaseContext) => string | RegExp
  /** A row's own expectation beyond the common ones; returns a problem, or null. */
  check?: (out: CaseOutput, ctx: CaseContext) => string | null
}
