/**
 * The Electron transport of the contract: one `ipcMain.handle` per channel, each refusing callers other
 * than the popover's renderer, and every push of the hub forwarded to the popover.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import { ipcChannels, type ContractHandlers, type IpcResult } from '../../../shared/ipc-contract.ts'
import { dispatchCall } from '../../runtime/dispatch.ts'
import type { PushHub } from '../../runtime/push-hub.ts'
import { isTrustedSender, type TrustedRenderer } from './sender-check.ts'

const FORBIDDEN: IpcResult<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'this window may not call Navi' },
}

function senderFacts(event: IpcMainInvokeEvent) {
  const frame = event.senderFrame
  return {
    frameUrl: frame?.url ?? null,
    isMainFrame: frame !== null && frame.parent === null,
    senderId: event.sender.id,
  }
}

/** Registers every channel; returns the function that removes them again. */
export function registerIpcHandlers(
  handlers: ContractHandlers,
  trusted: () => TrustedRenderer,
): () => void {
  for (const channel of ipcChannels) {
    ipcMain.handle(channel, async (event, raw: unknown) => {
      if (!isTrustedSender(senderFacts(event), trusted())) return FORBIDDEN
      return dispatchCall(handlers, channel, raw)
    })
  }
  return () => {
    for (const channel of ipcChannels) ipcMain.removeHandler(channel)
  }
}

/** Sends each push to `contents` while it lives; returns the unsubscribe function. */
export function forwardPushes(hub: PushHub, contents: WebContents): () => void {
  return hub.subscribe((channel, payload) => {
    if (!contents.isDestroyed()) contents.send(channel, payload)
  })
}
