import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

/** One span as OTLP/HTTP JSON carries it (the fields the tests read). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
  /** The instrumentation scope that made it (`context-bridge`, `@opentelemetry/instrumentation-pg`…). */
  scope: string;
}

interface ExportRequest {
  resourceSpans?: Array<{
    scopeSpans?: Array<{ scope?: { name?: string }; spans?: Array<Omit<OtlpSpan, 'scope'>> }>;
  }>;
}

/**
 * An OpenTelemetry collector on loopback that speaks OTLP/HTTP with the JSON encoding
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`): it accepts `POST /v1/traces`, answers as a
 * collector does, and keeps every body as received (for leak checks) and its spans parsed.
 */
export class OtlpCollector {
  readonly bodies: string[] = [];
  readonly spans: OtlpSpan[] = [];
  private readonly server: Server;
  private readonly waiters = new Set<() => void>();

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        this.bodies.push(body);
        for (const resource of (JSON.parse(body) as ExportRequest).resourceSpans ?? []) {
          for (const scoped of resource.scopeSpans ?? []) {
            for (const span of scoped.spans ?? []) {
              this.spans.push({ ...span, scope: scoped.scope?.name ?? '' });
            }
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        this.waiters.forEach((wake) => wake());
      });
    });
  }

  static async start(): Promise<OtlpCollector> {
    const collector = new OtlpCollector();
    await new Promise<void>((resolve) => collector.server.listen(0, '127.0.0.1', resolve));
    return collector;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `done(spans)` holds after an export arrives (or at once); rejects after `ms`. */
  until(what: string, done: (spans: OtlpSpan[]) => boolean, ms = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (done(this.spans)) {
          this.waiters.delete(check);
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`collector: timed out waiting for ${what}`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A span's attributes as a plain object. */
export function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries(
    (span.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]),
  );
}
