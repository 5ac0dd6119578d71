import type { RendererApi } from '../../shared/ipc-contract.ts'

declare global {
  interface Window {
    api: RendererApi
  }
}
