import { randomUUID } from 'node:crypto';
import { type Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { McpCaller } from './_caller.js';

/** 2025-era sessions one host instance keeps (each a connection's server), and how long one may idle. */
const LEGACY_SESSIONS_MAX = 1000;
const LEGACY_SESSION_IDLE_MS = 30 * 60_000;

/**
 * 2025-era connections of this instance: a streamable HTTP session each (its server and
 * transport), bound to the user and account that opened it; bounded, and dropped when idle.
 */
export class LegacySessions {
  private readonly sessions = new Map<
    string,
    { transport: WebStandardStreamableHTTPServerTransport; userId: string; accountId: string; used: number }
  >();

  async serve(
    request: Request,
    caller: McpCaller,
    newServer: () => Server,
    options: {
      authInfo: { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> };
      parsedBody: unknown;
    },
  ): Promise<Response> {
    this.sweep();
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.sessions.get(id);
      // Another user's or account's session id is as unknown as a made-up one.
      if (
        session === undefined ||
        session.userId !== caller.user.id ||
        session.accountId !== caller.accountId
      ) {
        return Response.json(
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32001, message: 'Session not found; initialize again.' },
          },
          { status: 404 },
        );
      }
      session.used = Date.now();
      return session.transport.handleRequest(request, options);
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        if (this.sessions.size >= LEGACY_SESSIONS_MAX) this.closeOldest();
        this.sessions.set(sessionId, {
          transport,
          userId: caller.user.id,
          accountId: caller.accountId,
          used: Date.now(),
        });
      },
      onsessionclosed: (sessionId) => {
        this.sessions.delete(sessionId);
      },
    });
    await newServer().connect(transport);
    return transport.handleRequest(request, options);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (now - session.used > LEGACY_SESSION_IDLE_MS) {
        this.sessions.delete(id);
        void session.transport.close();
      }
    }
  }

  private closeOldest(): void {
    const oldest = [...this.sessions.entries()].sort(([, a], [, b]) => a.used - b.used)[0];
    if (oldest === undefined) return;
    this.sessions.delete(oldest[0]);
    void oldest[1].transport.close();
  }
}
