/**
 * What every PostgreSQL connection Toolgate opens sets at connect (node-postgres' `options`).
 *
 * JIT off. Toolgate's statements are short by design (bounded pages, seq ranges, rollup reads),
 * but the planner cannot know a range's size when its bounds come from subqueries (seqAtSql), so
 * it costs them as a third of the table and, past `jit_above_cost`, compiles the statement
 * first: at 10,000,000 evidence rows the overview's partial hours took 321 ms, 279 of them JIT
 * compilation (495 functions); the same statement took 26 ms without it (`npm run
 * bench:dashboard`, 2026-12-01). A `DATABASE_URL` with its own `options` parameter replaces these
 * (node-postgres lets the URL win), so an operator who sets options there sets jit too.
 */
export const POSTGRES_SESSION_OPTIONS = '-c jit=off';

/**
 * A bound on each statement of the calls agents wait on (the evidence commit, history counter
 * reads): past it PostgreSQL cancels the statement (57014) and the call is answered 503 with
 * Retry-After, as on SQLite, whose writer gives up on a held lock after about 5 s. Without it a
 * locked table or a server hung on its disk held every call for as long as the stall lasted
 * (minutes), and the evidence queue behind it filled. A healthy statement here takes milliseconds.
 */
export const HOT_PATH_STATEMENT_TIMEOUT_MS = 10_000;

/**
 * The bound on every other statement Toolgate sends through its Prisma client (sign-in and API
 * key checks, the dashboard, the studio, background jobs), in seconds; 0 leaves them unbounded.
 * A table locked by an operator's long transaction held sign-ins and key checks for as long as
 * the lock (a locked ApiKey table: 29.6 s, the time the test held it), where past this bound the
 * statement is cancelled and the request answered 503 with Retry-After. The heaviest statement a
 * page sends at 10,000,000 evidence rows takes 33 ms (`npm run bench:dashboard`). Migrations run
 * through their own connection, unbounded; benches that load millions of rows set 0.
 */
export const DEFAULT_STATEMENT_TIMEOUT_SECONDS = 30;

/** A connection's `options`: the session settings, and the statement bound when there is one (0: none; a bound under 1 ms is 1 ms, since PostgreSQL reads 0 as none). */
export function postgresSessionOptions(statementTimeoutMs: number): string {
  return statementTimeoutMs > 0
    ? `${POSTGRES_SESSION_OPTIONS} -c statement_timeout=${Math.max(1, Math.round(statementTimeoutMs))}`
    : POSTGRES_SESSION_OPTIONS;
}
