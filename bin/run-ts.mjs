#!/usr/bin/env node
// Runs a TypeScript file (benchmarks, scripts) through tsx: `node bin/run-ts.mjs bench/run.ts`.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { register } from 'tsx/esm/api'

register()
const [file, ...rest] = process.argv.slice(2)
if (!file) throw new Error('usage: run-ts.mjs <file.ts> [args]')
process.argv = [process.argv[0], file, ...rest]
await import(pathToFileURL(resolve(file)).href)
