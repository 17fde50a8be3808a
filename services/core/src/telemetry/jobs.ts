import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Link } from '@opentelemetry/api';
import type { JobQueue } from '../jobs/types.js';
import { activeTracer, inSpan } from './tracing.js';

/** The job's type (one of the product's JOB_TYPES) and its id. */
export const ATTR_JOB_TYPE = 'gatehouse.job.type';
export const ATTR_JOB_ID = 'gatehouse.job.id';
export const ATTR_JOB_ATTEMPT = 'gatehouse.job.attempt';

/** What a queued job carries of the trace that queued it (W3C `traceparent`), when tracing is on. */
export type JobTraceCarrier = Record<string, string>;

/** The current trace, to be carried by a job queued now; undefined while tracing is off. */
export function jobTraceCarrier(): JobTraceCarrier | undefined {
  if (!activeTracer()) return undefined;
  const carrier: JobTraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length ? carrier : undefined;
}

/** `queue`, whose every `enqueue` makes a producer span under the request that asks for it while tracing is on. */
export function withEnqueueSpans(queue: JobQueue): JobQueue {
  if (!activeTracer()) return queue;
  const enqueue = queue.enqueue.bind(queue);
  queue.enqueue = (type, payload, options) =>
    inSpan(`enqueue ${type}`, { kind: SpanKind.PRODUCER, attributes: { [ATTR_JOB_TYPE]: type }, resultAttributes: (jobId) => ({ [ATTR_JOB_ID]: jobId }) }, () =>
      enqueue(type, payload, options),
    );
  return queue;
}

/**
 * One attempt of a job: a trace of its own (it may run minutes later, on another node), linked to
 * the span that queued it, so each side leads to the other.
 */
export function traceJobRun<T>(job: { jobId: string; type: string; trace?: JobTraceCarrier }, attempt: number, work: () => Promise<T>): Promise<T> {
  if (!activeTracer()) return work();
  const queued = job.trace ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, job.trace)) : undefined;
  const links: Link[] = queued ? [{ context: queued }] : [];
  // A new root: the queuing request's trace ended long ago.
  return context.with(ROOT_CONTEXT, () =>
    inSpan(`run ${job.type}`, { kind: SpanKind.CONSUMER, links, attributes: { [ATTR_JOB_TYPE]: job.type, [ATTR_JOB_ID]: job.jobId, [ATTR_JOB_ATTEMPT]: attempt } }, work),
  );
}
