/**
 * One call of the contract, whatever the transport: find the channel, check the input, run the handler,
 * check the output, and answer an `IpcResult` envelope. Never throws.
 */
import * as z from 'zod'
import {
  ipcContract,
  type ContractHandlers,
  type IpcChannel,
  type IpcResult,
} from '../../shared/ipc-contract.ts'
import { describeIssues } from './describe-issues.ts'

/** The `error.code` values of a failed call. */
export type DispatchErrorCode = 'unknown_channel' | 'bad_input' | 'failed' | 'bad_output'

export function isIpcChannel(channel: string): channel is IpcChannel {
  return Object.hasOwn(ipcContract, channel)
}

/**
 * Runs `channel` with `rawInput`. Unknown channel → `unknown_channel`; input not matching the contract →
 * `bad_input`; handler throws → `failed` (its message only); output not matching → `bad_output` (so
 * drift between handlers and contract shows up at once instead of in the renderer).
 * A `void` channel takes `undefined`, `null` or `{}` alike: IPC sends nothing, HTTP an empty body or `{}`.
 */
export async function dispatchCall(
  handlers: ContractHandlers,
  channel: string,
  rawInput: unknown,
): Promise<IpcResult<unknown>> {
  if (!isIpcChannel(channel)) {
    return failure('unknown_channel', `unknown channel "${channel}"`)
  }
  const { input: inputSchema, output: outputSchema } = ipcContract[channel]
  const input = inputSchema.safeParse(normalizeVoidInput(inputSchema, rawInput))
  if (!input.success) {
    return failure('bad_input', `${channel}: ${describeIssues(input.error)}`)
  }
  let output: unknown
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>
    output = await handler(input.data)
  } catch (error) {
    return failure('failed', error instanceof Error ? error.message : String(error))
  }
  const checked = outputSchema.safeParse(output)
  if (!checked.success) {
    return failure(
      'bad_output',
      `${channel} answered off-contract: ${describeIssues(checked.error)}`,
    )
  }
  return { ok: true, data: checked.data }
}

function normalizeVoidInput(schema: z.ZodType, raw: unknown): unknown {
  if (!(schema instanceof z.ZodVoid)) return raw
  const empty =
    raw === null ||
    (typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0)
  return empty ? undefined : raw
}

function failure(code: DispatchErrorCode, message: string): IpcResult<never> {
  return { ok: false, error: { code, message } }
}
