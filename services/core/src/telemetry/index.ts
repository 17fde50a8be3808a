// OpenTelemetry traces: on when an OTLP endpoint is configured, the API's no-op tracer otherwise.
// Only the API (and the conventions' attribute names) load with the product; the SDK and the exporter when tracing starts.
export * from './database.js';
export * from './http.js';
export * from './jobs.js';
export * from './tracing.js';
