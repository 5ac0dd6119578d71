#!/usr/bin/env node
// Runs the TypeScript CLI straight from the checkout (or a global install) through tsx.
import { register } from 'tsx/esm/api'

register()
await import('../electron/cli/navi.ts')
