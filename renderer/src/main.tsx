import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { bindKeyboard } from './app/keyboard.ts'
import { bindClock, bindPushes, loadAll } from './store/bind-pushes.ts'
import './styles/index.css'

bindPushes()
bindClock()
bindKeyboard()
loadAll()

const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}
