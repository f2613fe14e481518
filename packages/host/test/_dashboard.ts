import { type DashboardResponse, type DashboardWidget, dashboardResponseSchema } from '@platform/wire';
import { expect } from 'vitest';
import { startTestHost, type TestHost } from './_host.js';

type Headers = { authorization: string };
type ErrorBody = { code: string; message: string; hint?: string };

/** A test host with the dashboard fixtures (`fixtures/dashboard/board` then `crm`), activated and served to its account. */
export async function startDashboardHost(): Promise<TestHost> {
  const host = await startTestHost({ projects: ['dashboard/board', 'dashboard/crm'] });
  // Tenancy: a version is live for an account only on a source that serves it.
  await host.db.query(
    'INSERT INTO source_accounts (source_id, account_id) SELECT DISTINCT source_id, $1 FROM integrations ON CONFLICT DO NOTHING',
    [host.accountId],
  );
  return host;
}

/** The dashboard routes of `host()`'s account as a user of each test's own. */
export function dashboardClient(host: () => TestHost) {
  const base = () => `/api/platform/accounts/${host().accountId}/dashboard`;
  const as = (token: string): Headers => ({ authorization: `Bearer ${token}` });
  const read = async (response: Response): Promise<DashboardResponse> => {
    const body = (await response.json()) as { data: unknown };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return dashboardResponseSchema.parse(body.data);
  };
  return {
    base,
    as,
    read,
    async newUser(): Promise<{ userId: string; token: string; headers: Headers }> {
      const user = await host().addUser('member');
      return { ...user, headers: as(user.token) };
    },
    async errorOf(response: Response, status: number): Promise<ErrorBody> {
      const body = (await response.json()) as { error: ErrorBody };
      expect(response.status, JSON.stringify(body)).toBe(status);
      return body.error;
    },
    dashboard: async (headers: Headers) => read(await host().call(base(), { headers })),
    find(list: readonly DashboardWidget[], widgetId: string): DashboardWidget {
      const found = list.find((widget) => widget.widget.id === widgetId);
      if (found === undefined) throw new Error(`no widget ${widgetId} in ${list.map((w) => w.widget.id)}`);
      return found;
    },
    patch: (headers: Headers, id: string, json: unknown) =>
      host().call(`${base()}/widgets/${id}`, { method: 'PATCH', json, headers }),
  };
}
