import { Agent, request } from 'node:http';

/**
 * A lean keep-alive JSON client for load generation. On a 2-core box the load generator's
 * CPU is taken from the server it measures: `fetch` (WHATWG streams, Response objects) cost
 * ~1.8 ms of CPU per /context call here, `node:http` on kept-alive sockets about a third of
 * that, so the throughput figures say more about the service and less about the client.
 */
export class JsonClient {
  private readonly agent: Agent;

  constructor(
    private readonly baseUrl: string,
    sockets = 64,
    /** Sent with every request (an API key). */
    private readonly headers: Record<string, string> = {},
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  post<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.baseUrl}${path}`,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            ...this.headers,
            'content-type': 'application/json',
            'content-length': payload.length,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            try {
              const text = Buffer.concat(chunks).toString('utf8');
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as T });
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
