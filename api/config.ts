// Every environment variable the service reads, parsed once with zod. Defaults make a bare machine
// work (`npm start` with nothing set): embedded database, local data folder, no keys required.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import ipaddr from 'ipaddr.js';
import packageJson from '../package.json' with { type: 'json' };
import { METERED_CACHES } from './platform/cache-meter.ts';

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((value) => (value === undefined || value === '' ? fallback : value === 'true' || value === '1' || value === 'yes'));

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const nonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  BASE_URL: optionalString.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as https://mortgage.example.org' })
      // Written as is into the built HTML, XML and JSON files at start (api/platform/static/build-origin.ts).
      .refine((url) => !/[&<>"'\\]/.test(url), { error: 'must not contain & < > " \' or \\' })
      .optional(),
  ),
  API_HOST: z.string().default('api.localhost'),
  DATABASE_URL: optionalString,
  DATA_DIR: z.string().default('./.data'),
  MDS_SOURCE_DIR: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: nonNegativeInt(10_000),
  ACCEPT_SOCKETS: z.coerce.number().int().min(1).max(64).default(1),
  /** Caches turned off, comma-separated (api/platform/cache-meter.ts): for `npm run bench caches` only. */
  CACHES_OFF: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(METERED_CACHES))),
  SYNC_ON_START: booleanFlag(true),
  SYNC_DAILY: booleanFlag(true),
  /** An instance that finds another's sync running looks again after this, doubled each time (to 60 s). */
  SYNC_CATCH_UP_DELAY_MS: z.coerce.number().int().min(100).default(5_000),
  FRED_API_KEY: optionalString,
  CONGRESS_API_KEY: optionalString,
  REQUIRE_API_KEY: booleanFlag(false),
  RATE_LIMIT_ANON_PER_MINUTE: nonNegativeInt(20),
  RATE_LIMIT_KEY_PER_MINUTE: nonNegativeInt(100),
  RATE_LIMIT_PER_HOUR: nonNegativeInt(1000),
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres', 'redis']).default('memory'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  TRUST_PROXY: optionalString,
  SESSION_SECRET: optionalString,
  OIDC_ISSUER: optionalString,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /** Where people without sign-in ask for a key (an email address or URL), named in 401 answers. */
  SUPPORT_CONTACT: optionalString,
  OPENAI_BASE_URL: optionalString,
  OPENAI_API_KEY: optionalString,
  ASK_MODEL: optionalString,
  ASK_TIMEOUT_MS: nonNegativeInt(20_000),
  HMDA_DIR: optionalString,
  HMDA_QUERY_TIMEOUT_MS: nonNegativeInt(10_000),
  HMDA_MEMORY_LIMIT: z.string().default('1GB'),
  HMDA_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Private networks webhooks may reach after all (CIDRs, comma-separated, e.g. `10.20.0.0/16`): by
   * default a hook's address must be public, never private, loopback or link-local.
   */
  WEBHOOK_ALLOW_NETWORKS: optionalString.pipe(
    z
      .string()
      .optional()
      .transform((value, context) => {
        const networks = (value ?? '')
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '');
        const invalid = networks.filter((network) => !ipaddr.isValidCIDR(network));
        if (invalid.length > 0)
          context.addIssue({ code: 'custom', message: `not a CIDR network: ${invalid.join(', ')} (e.g. 10.0.0.0/8)` });
        return networks;
      }),
  ),
  /** A PEM file of certificate authorities webhook endpoints may also be signed by (an internal CA). */
  WEBHOOK_CA_FILE: optionalString,
  WEBHOOKS_PER_ACCOUNT: z.coerce.number().int().min(0).max(100).default(5),
  /** With DATABASE_URL, how often an instance looks for versions other instances published (ms). */
  DATASET_UPDATES_POLL_MS: z.coerce.number().int().min(1_000).default(30_000),
});

export type Env = z.infer<typeof envSchema>;

/** The repository root: built files and hand-maintained data are found relative to it, not to cwd. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Resolved configuration: the parsed environment plus the values derived from it. */
export interface Config extends Env {
  baseUrl: string;
  dataDir: string;
  hmdaDir: string;
  sourceDir: string | undefined;
  /** The built site (Astro's output). */
  distDir: string;
  apiVersion: 'v1';
  version: string;
}

export class ConfigError extends Error {}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join('; ')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    baseUrl: (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir,
    hmdaDir: path.resolve(env.HMDA_DIR ?? path.join(dataDir, 'hmda')),
    sourceDir: env.MDS_SOURCE_DIR === undefined ? undefined : path.resolve(env.MDS_SOURCE_DIR),
    distDir: path.join(PROJECT_ROOT, 'dist'),
    apiVersion: 'v1',
    version: packageJson.version,
  };
}
