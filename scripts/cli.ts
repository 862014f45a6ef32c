#!/usr/bin/env node
// `npx mortgage-data-service <command>`: start | mcp | sync | keys. The same entry points as the
// npm scripts, for installs that use the package binary.
export {};

const [command, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0] ?? 'node', process.argv[1] ?? 'cli', ...rest];

switch (command) {
  case 'mcp':
    await import('./mcp-stdio.ts');
    break;
  case 'start':
    await import('./start.ts');
    break;
  case 'sync':
    await import('./sync.ts');
    break;
  case 'keys':
    await import('./keys.ts');
    break;
  default:
    process.stderr.write('usage: mortgage-data-service <start|mcp|sync|keys> [options]\n');
    process.exit(command === undefined || command === 'help' || command === '--help' ? 0 : 2);
}
