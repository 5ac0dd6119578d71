import { contextBridge, ipcRenderer } from 'electron'
import { IPC_CHANNEL_NAMES, PUSH_CHANNEL_NAMES } from '../../shared/channel-names.ts'
import type { IpcResult, RendererApi } from '../../shared/ipc-contract.ts'

const callable = new Set<string>(IPC_CHANNEL_NAMES)
const listenable = new Set<string>(PUSH_CHANNEL_NAMES)

// Only the contract's channels cross the bridge, whatever a compromised page passes at run time.
const api: RendererApi = {
  invoke: (channel, input) =>
    callable.has(channel)
      ? ipcRenderer.invoke(channel, input)
      : Promise.resolve<IpcResult<never>>({
          ok: false,
          error: { code: 'unknown_channel', message: `no such channel: ${String(channel)}` },
        }),
  on: (channel, listener) => {
    if (!listenable.has(channel)) return () => undefined
    const wrapped = (_event: Electron.IpcRendererEvent, payload: Parameters<typeof listener>[0]) =>
      listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => ipcRenderer.removeListener(channel, wrapped)
  },
}

contextBridge.exposeInMainWorld('api', api)
