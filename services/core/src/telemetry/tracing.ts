import { context, diag, DiagLogLevel, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Link, type Span, type Tracer } from '@opentelemetry/api';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from '../logging/logger.js';

/**
 * The tracer while tracing is on, else undefined. Every hook reads it first and, when it is
 * undefined, calls straight through: with tracing off a request pays one comparison per hook.
 */
let tracer: Tracer | undefined;

/** The tracer spans are made with, when tracing is on. */
export function activeTracer(): Tracer | undefined {
  return tracer;
}

/** A started tracing pipeline: what the process stop flushes. */
export interface Tracing {
  /** Sends the spans still buffered and turns tracing off, giving up after `timeoutMs`. */
  shutdown(timeoutMs: number): Promise<void>;
}

export interface StartTracingOptions {
  /** `service.name` when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names the service. */
  serviceName: string;
  /** OTLP/HTTP base address (OTEL_EXPORTER_OTLP_ENDPOINT): spans are posted to `<endpoint>/v1/traces`. */
  endpoint?: string;
  /** The traces' own address (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), used as given; wins over `endpoint`. Neither set: tracing stays off. */
  tracesEndpoint?: string;
  /** OTEL_SDK_DISABLED: off whatever address is set. */
  disabled?: boolean;
  /** Where export failures are reported (at most one line a minute). */
  logger?: Logger;
}

/**
 * Turns tracing on for this process when an OTLP endpoint is configured: spans go in batches to
 * the collector over OTLP/HTTP (the standard OTEL_* variables tune the exporter, the batches and the
 * sampler). Off, nothing is registered and the API's tracer stays the no-op one. Called once, before
 * the apps and their database pool are made.
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing | undefined> {
  const url = tracesUrl(options);
  if (!url) return undefined;
  const [{ OTLPTraceExporter }, { BatchSpanProcessor }] = await Promise.all([import('@opentelemetry/exporter-trace-otlp-http'), import('@opentelemetry/sdk-trace-base')]);
  if (options.logger) reportExportProblems(options.logger);
  return register(options.serviceName, new BatchSpanProcessor(new OTLPTraceExporter({ url })));
}

/**
 * Where spans are posted, undefined when tracing is off. The addresses come through the
 * configuration (a file may set them too): the signal's own is used as given, the base one gets
 * the signal's path, as the OTLP exporter specification says.
 */
export function tracesUrl(options: Pick<StartTracingOptions, 'endpoint' | 'tracesEndpoint' | 'disabled'>): string | undefined {
  if (options.disabled) return undefined;
  if (options.tracesEndpoint) return options.tracesEndpoint;
  return options.endpoint ? `${options.endpoint.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/**
 * Tests: spans go to `exporter` one by one as they end (an `InMemorySpanExporter`), through the
 * same registration as a deployment's. Shut it down after the test, so later tests run untraced.
 */
export async function startTracingForTests(exporter: SpanExporter, serviceName = 'gatehouse-test'): Promise<Tracing> {
  const { SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  return register(serviceName, new SimpleSpanProcessor(exporter));
}

async function register(serviceName: string, processor: SpanProcessor): Promise<Tracing> {
  if (tracer) throw new Error('tracing is already started in this process');
  const [{ NodeSDK }, { defaultResource, resourceFromAttributes }] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/resources')]);
  const sdk = new NodeSDK({
    // The detected attributes (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, host, process) win over this default name.
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })),
    spanProcessors: [processor],
    // Traces only: metrics are Prometheus's (/metrics), and nothing logs through OpenTelemetry.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  tracer = trace.getTracer('gatehouse');
  let stopped: Promise<void> | undefined;
  return {
    shutdown(timeoutMs) {
      return (stopped ??= (async () => {
        tracer = undefined;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, timeoutMs))));
        await Promise.race([sdk.shutdown().catch(() => undefined), late]);
        clearTimeout(timer);
        // Unregistered, so a later start in the same process (tests) registers afresh.
        trace.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      })());
    },
  };
}

/** The SDK reports failed exports through its diagnostic logger: to the log, once a minute at most. */
function reportExportProblems(logger: Logger): void {
  let last = 0;
  const report = (message: string, ...args: unknown[]) => {
    const now = Date.now();
    if (now - last < 60_000) return;
    last = now;
    logger.warn({ detail: args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ') }, `tracing: ${message}`);
  };
  const ignore = () => undefined;
  diag.setLogger({ error: report, warn: report, info: ignore, debug: ignore, verbose: ignore }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
}

/** The SQLSTATE of a database error (the driver's, or TypeORM's wrapping of it). */
function sqlStateOf(error: Error): string | undefined {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && ('severity' in error || 'driverError' in error) ? code : undefined;
}

/**
 * Marks the span failed: status ERROR, `error.type` the error's class, and the exception's type and
 * message (no stack: the message says what went wrong, the code where is in the logs). A database
 * error is told by its SQLSTATE alone: its message may quote a value.
 */
export function recordError(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.constructor.name || error.name : typeof error;
  const sqlState = error instanceof Error ? sqlStateOf(error) : undefined;
  const message = sqlState ? `SQLSTATE ${sqlState}` : error instanceof Error ? error.message : String(error);
  span.recordException({ name: type, message });
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

export interface SpanOptions<T> {
  attributes?: Attributes;
  kind?: SpanKind;
  links?: Link[];
  /** Attributes read from the result when the work ends (an outcome, a refusal code). */
  resultAttributes?: (result: T) => Attributes | undefined;
}

/**
 * Runs `work` in a span of its own, the current span's child; a thrown error marks it failed. With
 * tracing off it is `work()`.
 */
export function inSpan<T>(name: string, options: SpanOptions<T>, work: () => Promise<T>): Promise<T> {
  const current = tracer;
  if (!current) return work();
  return current.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links }, async (span) => {
    try {
      const result = await work();
      const extra = options.resultAttributes?.(result);
      if (extra) span.setAttributes(extra);
      return result;
    } catch (error) {
      recordError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Records an error on the span of the current request or operation, if one is being traced. */
export function recordErrorOnActiveSpan(error: unknown): void {
  if (!tracer) return;
  const span = trace.getActiveSpan();
  if (span) recordError(span, error);
}
