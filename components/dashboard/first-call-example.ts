/**
 * The first call the empty dashboard shows: a call the demo tenant's published orders.lookup
 * contract allows (lib/contracts/examples.ts: `tenant_id` and an `ord_` id of 6-24 lowercase
 * letters and digits are required, and the tenant in the arguments must be the caller's, from
 * `context.tenant_id`), and the result its postcondition accepts (the same order id back). The
 * studio's read-only query template is also orders.lookup and its result also requires
 * `total_cents`, so a tenant that published the template gets the same answers.
 * lib/api/tests/first-call-example.int.test.ts runs exactly these bodies against both.
 */
const args = { tenant_id: 'acme', order_id: 'ord_a1b2c3' };
const context = { tenant_id: 'acme', user_id: 'u_1' };

export const FIRST_CALL_PRE = { tool: 'orders.lookup', call_id: 'call-1', arguments: args, context };

/** execution_ms: how long the tool took, for the trace timeline. */
export const FIRST_CALL_POST = {
  ...FIRST_CALL_PRE,
  result: { order_id: args.order_id, status: 'shipped', total_cents: 4200 },
  execution_ms: 42,
};

/** The two curl commands against this instance (its public URL, without a trailing slash). */
export function firstCallCommands(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const curl = (path: string, body: unknown) =>
    `curl -s ${base}${path} \\\n  -H "Authorization: Bearer $TOOLGATE_KEY" -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(body)}'`;
  return `${curl('/api/v1/validate/pre', FIRST_CALL_PRE)}\n\n# after the tool ran (execution_ms: how long it took, for the trace timeline)\n${curl('/api/v1/validate/post', FIRST_CALL_POST)}`;
}
