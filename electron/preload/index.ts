import { contextBridge, ipcRenderer } from 'electron'
import type { RendererApi } from '../../shared/ipc-contract.ts'

const api: RendererApi = {
  invoke: (channel, input) => ipcRenderer.invoke(channel, input),
  on: (channel, listener) => {
    const wrapped = (_event: Electron.IpcRendererEvent, payload: Parameters<typeof listener>[0]) =>
      listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => ipcRenderer.removeListener(channel, wrapped)
  },
}

contextBridge.exposeInMainWorld('api', api)
