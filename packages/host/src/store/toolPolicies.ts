import type { Queryable } from '../db/Db.js';

/**
 * An account's policy for one tool: `ask` (the default: a tool that writes, destroys or is highly
 * sensitive runs only after the person confirms), `allow` (runs without asking), `block` (not
 * listed, refused).
 */
export type ToolPolicy = 'ask' | 'allow' | 'block';

export const TOOL_POLICIES: readonly ToolPolicy[] = ['ask', 'allow', 'block'];

export function isToolPolicy(value: unknown): value is ToolPolicy {
  return typeof value === 'string' && (TOOL_POLICIES as readonly string[]).includes(value);
}

/** The account's policies that are not `ask`, by effective tool name. */
export async function toolPolicies(db: Queryable, accountId: string): Promise<Map<string, ToolPolicy>> {
  const { rows } = await db.query('SELECT tool_name, policy FROM tool_policies WHERE account_id = $1', [
    accountId,
  ]);
  return new Map(rows.map((row) => [row.tool_name as string, row.policy as ToolPolicy]));
}

/** Sets one tool's policy for an account (`ask` removes the row: it is the default). */
export async function setToolPolicy(
  db: Queryable,
  input: { accountId: string; toolName: string; policy: ToolPolicy; userId: string | null },
): Promise<void> {
  if (input.policy === 'ask') {
    await db.query('DELETE FROM tool_policies WHERE account_id = $1 AND tool_name = $2', [
      input.accountId,
      input.toolName,
    ]);
    return;
  }
  await db.query(
    `INSERT INTO tool_policies (account_id, tool_name, policy, set_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, tool_name) DO UPDATE SET policy = excluded.policy, set_by = excluded.set_by, set_at = now()`,
    [input.accountId, input.toolName, input.policy, input.userId],
  );
}

/**
 * Marks a confirmation used, once: true the first time for `nonce`, false after (whichever host
 * instance saw it first). Expired marks are swept on the way.
 */
export async function useConfirmation(
  db: Queryable,
  nonce: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await db.query('DELETE FROM tool_confirmations_used WHERE expires_at < $1', [now]);
  const { rows } = await db.query(
    `INSERT INTO tool_confirmations_used (nonce, expires_at) VALUES ($1, $2)
     ON CONFLICT (nonce) DO NOTHING RETURNING nonce`,
    [nonce, expiresAt],
  );
  return rows.length === 1;
}
