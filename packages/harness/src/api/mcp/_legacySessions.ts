import { randomUUID } from 'node:crypto';
import { type Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

const SESSIONS_MAX = 100;
const SESSION_IDLE_MS = 30 * 60_000;

/**
 * The harness's 2025-era MCP connections: a streamable HTTP session each, as the host keeps them
 * (its `elicitation/create` needs a connection back to the client), bounded and dropped when idle.
 * No user to bind: the harness has one, and it answers loopback only.
 */
export class LegacySessions {
  private readonly sessions = new Map<
    string,
    { transport: WebStandardStreamableHTTPServerTransport; used: number }
  >();

  async serve(request: Request, newServer: () => Server, parsedBody: unknown): Promise<Response> {
    this.sweep();
    const id = request.headers.get('mcp-session-id');
    const options = parsedBody === undefined ? {} : { parsedBody };
    if (id !== null) {
      const session = this.sessions.get(id);
      if (session === undefined) {
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
        if (this.sessions.size >= SESSIONS_MAX) this.closeOldest();
        this.sessions.set(sessionId, { transport, used: Date.now() });
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
      if (now - session.used > SESSION_IDLE_MS) {
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
