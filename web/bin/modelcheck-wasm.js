#!/usr/bin/env node
// modelcheck-wasm: the modelcheck command itself (cli/main.c and the rest of
// cli/, compiled to WebAssembly for Node: modelcheck-cli.cjs), so every option,
// subcommand, output, configuration file, baseline and exit code is the native
// command's, and so is every byte it writes. certify and fuzz, which run other
// programs in a sandbox, answer that they need the native build (exit 2).
import { createRequire } from 'node:module';
import v8 from 'node:v8';

// Liftoff, V8's baseline compiler of WebAssembly, only: a command validates
// once and ends, and the optimising compiler V8 would start meanwhile on the
// hot validator functions (in the background, for the calls after this one)
// takes the second core and delays the end (docs/PERFORMANCE.md, "WebAssembly").
// Set before the module is compiled.
v8.setFlagsFromString('--liftoff-only');

// The script runs main() with process.argv's arguments and exits with its code.
createRequire(import.meta.url)('../modelcheck-cli.cjs');
