import { z } from 'zod';
import { databaseUrlProblem, DEFAULT_DATABASE_URL } from './db/database-url';
import { DEFAULT_STATEMENT_TIMEOUT_SECONDS } from './db/postgres-session';
import { parseTrustedProxies } from './http/client-address';

/**
 * Every setting Toolgate reads, parsed once. A bad value stops start-up with a message naming
 * the variable instead of failing later inside a request.
 */
/** The longest an approval, confirmation or duplicate window may last: 30 days, as tenants' settings. */
const MAX_TTL_SECONDS = 30 * 86_400;

/**
 * Numbers as people write them in settings: digits with an optional fraction. `z.coerce` took
 * whatever Number() does (0x10, 1e3, Infinity's spelling, whitespace), so PORT=0x10 served on 16.
 */
const DECIMAL = /^\s*\d{1,15}(?:\.\d{1,15})?\s*$/;
const NOT_A_NUMBER = {
  // `.int()` reports its own failure as invalid_type too, expecting "int".
  error: (issue: { code?: string; expected?: string }) =>
    issue.code !== 'invalid_type'
      ? undefined
      : issue.expected === 'int'
        ? 'must be a whole number'
        : 'must be a decimal number, as 3000 or 2.5',
};
function decimal<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value), schema);
}

/** An http(s) address: `localhost:4318` is a valid URL whose scheme is "localhost:". */
const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const EnvSchema = z.object({
  DATABASE_URL: z
    .string()
    .min(1)
    .default(DEFAULT_DATABASE_URL)
    .superRefine((value, ctx) => {
      const problem = databaseUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  PORT: decimal(z.number(NOT_A_NUMBER).int().min(1).max(65535)).default(3000),
  HOSTNAME: z.string().min(1).default('0.0.0.0'),
  // Signs approval and confirmation tokens and Better Auth sessions. When unset, a random secret
  // is generated once and kept in the database so that every instance shares it.
  TOOLGATE_SECRET: z.string().min(32, 'TOOLGATE_SECRET must be at least 32 characters').optional(),
  TOOLGATE_PUBLIC_URL: httpUrl().optional(),
  TOOLGATE_MAX_BODY_BYTES: decimal(
    z
      .number(NOT_A_NUMBER)
      .int()
      .min(1024)
      .max(64 * 1024 * 1024),
  ).default(1024 * 1024),
  TOOLGATE_MAX_JSON_DEPTH: decimal(z.number(NOT_A_NUMBER).int().min(4).max(1000)).default(64),
  // At most 30 days, as the tenant setting: 99999999999999 made every held call's expiry an
  // invalid date, and every call that needed an approval answered 503.
  TOOLGATE_APPROVAL_TTL_SECONDS: decimal(z.number(NOT_A_NUMBER).int().min(10).max(MAX_TTL_SECONDS)).default(3600),
  TOOLGATE_CONFIRMATION_TTL_SECONDS: decimal(z.number(NOT_A_NUMBER).int().min(10).max(MAX_TTL_SECONDS)).default(600),
  TOOLGATE_DUPLICATE_WINDOW_SECONDS: decimal(z.number(NOT_A_NUMBER).int().min(1).max(MAX_TTL_SECONDS)).default(600),
  // How often each instance polls the change counters behind its caches (lib/cache/change-feed.ts); 0: never.
  TOOLGATE_CACHE_POLL_MS: decimal(z.number(NOT_A_NUMBER).int().min(0).max(60_000)).default(1000),
  // Evidence records waiting to be committed; past it, validations answer 503 + Retry-After.
  TOOLGATE_EVIDENCE_QUEUE_MAX: decimal(z.number(NOT_A_NUMBER).int().min(1).max(1_000_000)).default(4096),
  TOOLGATE_EVIDENCE_BATCH_MAX: decimal(z.number(NOT_A_NUMBER).int().min(1).max(1000)).default(200),
  // Webhook receivers on private, loopback or link-local addresses: refused unless this is set
  // (a receiver inside your own network); see lib/webhooks/webhook-address.ts.
  TOOLGATE_WEBHOOK_ALLOW_PRIVATE: z
    .enum(['0', '1', 'false', 'true'])
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
  // Hosted MCP servers (lib/mcp) on private, loopback or link-local addresses: refused unless
  // this is set, with the same rules as webhook receivers.
  TOOLGATE_MCP_ALLOW_PRIVATE: z
    .enum(['0', '1', 'false', 'true'])
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
  // The hosted MCP gateway: how long an upstream may take for one tools/call, and the largest
  // result passed to the model (larger ones are withheld).
  TOOLGATE_MCP_CALL_TIMEOUT_SECONDS: decimal(z.number(NOT_A_NUMBER).min(0.1).max(3600)).default(60),
  TOOLGATE_MCP_MAX_RESULT_BYTES: decimal(
    z
      .number(NOT_A_NUMBER)
      .int()
      .min(1024)
      .max(64 * 1024 * 1024),
  ).default(1024 * 1024),
  // People (lib/members): how long an invitation link stays valid, and mail. Without
  // TOOLGATE_SMTP_URL the link is only shown to the admin who invited.
  TOOLGATE_INVITATION_TTL_SECONDS: decimal(
    z
      .number(NOT_A_NUMBER)
      .int()
      .min(60)
      .max(90 * 24 * 3600),
  ).default(7 * 24 * 3600),
  TOOLGATE_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'TOOLGATE_SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  TOOLGATE_MAIL_FROM: z.string().min(3).optional(),
  // Sign-in with the company's OpenID Connect provider (lib/auth/sso-config.ts): on when the
  // issuer, client id and client secret are all set.
  TOOLGATE_OIDC_ISSUER: httpUrl().optional(),
  TOOLGATE_OIDC_CLIENT_ID: z.string().min(1).optional(),
  TOOLGATE_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // Comma-separated e-mail domains allowed to sign in with SSO (empty: any).
  TOOLGATE_OIDC_ALLOWED_DOMAINS: z.string().optional(),
  // What the sign-in button says ("Sign in with <name>").
  TOOLGATE_OIDC_NAME: z.string().min(1).max(60).default('SSO'),
  // Optional groups claim and its mapping to roles: "group=role,group=role".
  TOOLGATE_OIDC_GROUPS_CLAIM: z.string().min(1).optional(),
  TOOLGATE_OIDC_ROLE_MAPPING: z.string().optional(),
  // PostgreSQL: each statement of the Prisma client past this is cancelled, answered 503 (lib/db/postgres-session.ts); 0: unbounded.
  TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS: decimal(z.number(NOT_A_NUMBER).min(0).max(86_400)).default(DEFAULT_STATEMENT_TIMEOUT_SECONDS),
  // The most records GET /api/v1/evidence/verify reads in one request (about 55,000 a second);
  // more answers 409 verification_too_large and a verification run does it (lib/evidence/verification); 0: unbounded.
  TOOLGATE_VERIFY_MAX_RECORDS: decimal(z.number(NOT_A_NUMBER).int().min(0).max(1_000_000_000)).default(250_000),
  // Proxies in front of Toolgate whose X-Forwarded-For is believed (lib/http/client-address.ts):
  // addresses or CIDR ranges, comma- or space-separated. Unset: the connection's peer is the caller.
  TOOLGATE_TRUSTED_PROXIES: z
    .string()
    .max(10_000)
    .optional()
    .transform((value, ctx) => {
      try {
        return parseTrustedProxies(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `TOOLGATE_TRUSTED_PROXIES: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  // How long a stopping server keeps answering calls on connections kept alive before the stop
  // (lib/data-plane/server.ts drainDataPlaneServer); then it closes those left idle.
  TOOLGATE_DRAIN_GRACE_SECONDS: decimal(z.number(NOT_A_NUMBER).min(0).max(600)).default(5),
  // How often the retention purge runs (lib/retention).
  // At most a week: a timer longer than 2^31 ms fires at once, and the purge ran back to back.
  TOOLGATE_RETENTION_PURGE_INTERVAL_SECONDS: decimal(
    z
      .number(NOT_A_NUMBER)
      .int()
      .min(10)
      .max(7 * 86_400),
  ).default(3600),
  // Prometheus scrapes /metrics with it as a Bearer token and sees every tenant's series
  // (lib/metrics); admin API keys see only their own tenant's.
  TOOLGATE_METRICS_TOKEN: z.string().min(32, 'TOOLGATE_METRICS_TOKEN must be at least 32 characters').optional(),
  // Decisions as OpenTelemetry spans (lib/telemetry): on when an OTLP endpoint is set. The SDK
  // reads the other OTEL_* variables itself; these decide whether it is loaded at all.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl().optional(),
  OTEL_SDK_DISABLED: z
    .string()
    .optional()
    .transform((value) => value?.trim().toLowerCase() === 'true'),
  OTEL_TRACES_EXPORTER: z.string().optional(),
  // Redacted arguments on the spans, for tenants that retain arguments: off unless set.
  TOOLGATE_OTEL_ARGUMENTS: z
    .enum(['0', '1', 'false', 'true'])
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
  TOOLGATE_INIT_TENANT: z.string().min(1).optional(),
  TOOLGATE_INIT_ADMIN_EMAIL: z.string().email().optional(),
  TOOLGATE_INIT_ADMIN_PASSWORD: z.string().min(8, 'TOOLGATE_INIT_ADMIN_PASSWORD must be at least 8 characters').optional(),
  TOOLGATE_INIT_API_KEY: z.string().min(20, 'TOOLGATE_INIT_API_KEY must be at least 20 characters').optional(),
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

/** A setting the operator must fix: `npm start` prints its message alone and stops. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

export function env(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(withoutEmptyValues(process.env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigurationError(`Invalid Toolgate configuration:\n${lines.join('\n')}`);
  }
  cached = parsed.data;
  return cached;
}

/** Where people and agents reach this instance: TOOLGATE_PUBLIC_URL, else this machine's port. */
export function publicBaseUrl(): string {
  const e = env();
  return e.TOOLGATE_PUBLIC_URL ?? `http://localhost:${e.PORT}`;
}

/**
 * `NAME=` with nothing after it (as .env templates and compose files leave settings) means
 * unset, not an empty value to validate: `TOOLGATE_OIDC_ISSUER=` does not half-configure SSO.
 */
function withoutEmptyValues(vars: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) if (value !== undefined && value.trim() !== '') out[name] = value;
  return out;
}

/**
 * TOOLGATE_* names read outside EnvSchema: the CLI and the MCP proxy (on an agent's machine), the
 * build, logging and response checks, and the test and bench harnesses.
 */
const OTHER_TOOLGATE_VARIABLES = [
  'TOOLGATE_URL',
  'TOOLGATE_API_KEY',
  'TOOLGATE_DIST_DIR',
  'TOOLGATE_LOG',
  'TOOLGATE_VALIDATE_RESPONSES',
  'TOOLGATE_E2E_DATABASE',
  'TOOLGATE_EMAIL',
  'TOOLGATE_PASSWORD',
];

/**
 * A warning for each TOOLGATE_* variable Toolgate does not read, with the setting it was probably
 * meant to be: TOOLGATE_TRUSTED_PROXY (no S) left every client behind the proxy one address, and
 * TOOLGATE_SECERT left the instance on a generated secret, each without a word.
 */
export function unknownSettingWarnings(vars: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const known = [...Object.keys(EnvSchema.shape).filter((name) => name.startsWith('TOOLGATE_')), ...OTHER_TOOLGATE_VARIABLES];
  return Object.keys(vars)
    .filter((name) => name.startsWith('TOOLGATE_') && !known.includes(name))
    .sort()
    .map((name) => {
      const shown = JSON.stringify(name.slice(0, 100)).slice(1, -1) + (name.length > 100 ? '…' : '');
      const guess = closestName(name, known);
      return `${shown} is not a Toolgate setting and is ignored${guess ? ` (did you mean ${guess}?)` : ''}`;
    });
}

/** The known name within a few edits of `name` (a typo, a missing or extra letter), if one is. */
function closestName(name: string, known: readonly string[]): string | undefined {
  if (name.length > 100) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance <= 3 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Tests change the environment between files; they call this after doing so. */
export function resetEnvForTests(): void {
  cached = undefined;
}
