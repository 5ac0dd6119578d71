/**
 * zod without its compiled parsers, for a command that answers and exits: it parses each shape a few
 * hundred times at most, and zod compiling a parser per object schema the first time (its `new Function`
 * fast path) costs it more than it saves. Must run before the schemas are made (each decides at its
 * construction). A module of its own, imported when needed: importing zod itself that way made the
 * bundle build zod's whole namespace (hundreds of getters) on every command.
 */
import { config } from 'zod'

export function parseWithoutJit(): void {
  config({ jitless: true })
}
