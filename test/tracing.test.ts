import { randomBytes } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracingForTests, type Tracing } from '@gatehouse/core';
import { expect } from 'chai';
import { atLoginPage, startServerWithMail } from './support/flows.js';
import type { TestServer } from './support/server.js';
import type { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Traced-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants:
  - { title: Secure Corp, area: Default, requiredTwoModeAuthentification: true }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: spa, name: spa, displayName: Browser app, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
users:
  - { userName: tracy@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - userName: sam@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Secure Corp, application: '1', roles: [User] }]
`;

const attribute = (span: ReadableSpan, name: string) => span.attributes[name];
const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) => spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
const isStatement = (span: ReadableSpan) => attribute(span, 'db.system.name') === 'postgresql';

/** Every attribute and event attribute of the spans, as one text to search. */
const everythingRecorded = (spans: ReadableSpan[]) => JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events.map((e) => e.attributes) })));

describe('traces of a sign-in (OpenTelemetry)', function () {
  this.timeout(60_000);
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let server: TestServer;
  let smtp: MailCatcher;
  let stop: () => Promise<void>;

  before(async () => {
    tracing = await startTracingForTests(exporter);
    ({ server, smtp, stop } = await startServerWithMail(BOOTSTRAP));
  });
  after(async () => {
    await stop?.();
    await tracing?.shutdown(2000);
  });

  /** The server span of the request whose answer carried `requestId`. */
  function requestSpan(requestId: string): ReadableSpan {
    const found = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER && attribute(s, 'gatehouse.request.id') === requestId);
    expect(found, `one server span with request id ${requestId}`).to.have.length(1);
    return found[0]!;
  }

  it('makes one server span per request, continuing the caller’s traceparent and naming the request id, with the sign-in steps as its children and their statements under them', async () => {
    const browser = await atLoginPage(server);
    exporter.reset();
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await browser.postJson('/api/v1/account/login', { userName: 'tracy@example.com', password: PASSWORD }, { traceparent: `00-${traceId}-${callerSpanId}-01` });
    expect(res.status).to.equal(200);
    const requestId = res.headers.get('x-request-id')!;
    const spans = exporter.getFinishedSpans();

    const http = requestSpan(requestId);
    expect(http.name).to.equal('POST /api/v1/account/login');
    expect(http.attributes).to.include({ 'http.request.method': 'POST', 'http.route': '/api/v1/account/login', 'http.response.status_code': 200 });
    expect(http.spanContext().traceId, 'the caller’s trace goes on').to.equal(traceId);
    expect(http.parentSpanContext?.spanId).to.equal(callerSpanId);
    expect(http.status.code).to.not.equal(SpanStatusCode.ERROR);

    const steps = childrenOf(spans, http).filter((s) => s.name.startsWith('sign-in '));
    expect(steps.map((s) => s.name)).to.include.members(['sign-in loadAccount', 'sign-in reserveAttempt', 'sign-in verifyPassword', 'sign-in refuseLocked', 'sign-in requireSecondFactor', 'sign-in finish']);
    const finish = steps.find((s) => s.name === 'sign-in finish')!;
    expect(finish.attributes).to.include({ 'gatehouse.sign_in.step': 'finish', 'gatehouse.sign_in.outcome': 'signed-in' });

    // The account is read under its step; the attempt's reservation (the lockout check) writes under its own.
    for (const name of ['sign-in loadAccount', 'sign-in reserveAttempt', 'sign-in finish']) {
      const statements = childrenOf(spans, steps.find((s) => s.name === name)!).filter(isStatement);
      expect(statements, `statements under ${name}`).to.not.be.empty;
      for (const statement of statements) {
        expect(statement.kind).to.equal(SpanKind.CLIENT);
        expect(statement.attributes['db.operation.name']).to.be.a('string');
        expect(statement.attributes['db.query.text']).to.be.a('string');
      }
    }
    const accountRead = childrenOf(spans, steps.find((s) => s.name === 'sign-in loadAccount')!).find(isStatement)!;
    expect(accountRead.attributes).to.include({ 'db.operation.name': 'SELECT' });
    expect(String(accountRead.attributes['db.query.text'])).to.match(/\$1/);

    const recorded = everythingRecorded(spans);
    expect(recorded).to.not.include(PASSWORD);
    expect(recorded, 'no parameter value: the user name').to.not.include('tracy@example.com');
    expect(recorded, 'no password hash').to.not.include('$argon2');
  });

  it('records the second factor: its step under the password request, the code check and the finish under the code request', async () => {
    const browser = await atLoginPage(server);
    exporter.reset();
    const mailsBefore = smtp.mails.length;
    const passwordStep = await browser.postJson('/api/v1/account/login', { userName: 'sam@example.com', password: PASSWORD }, { 'accept-language': 'en' });
    const { token } = (await passwordStep.json()) as { token: string };
    const second = childrenOf(exporter.getFinishedSpans(), requestSpan(passwordStep.headers.get('x-request-id')!)).find((s) => s.name === 'sign-in requireSecondFactor')!;
    expect(second.attributes).to.include({ 'gatehouse.sign_in.outcome': 'second-factor' });

    const code = /\b(\d{6})\b/.exec((await smtp.next('sam@example.com', mailsBefore)).text ?? '')![1]!;
    const verified = await browser.postJson('/api/v1/account/verifyCode', { token, code }, { 'accept-language': 'en' });
    expect(verified.status).to.equal(200);
    const spans = exporter.getFinishedSpans();
    const check = childrenOf(spans, requestSpan(verified.headers.get('x-request-id')!)).find((s) => s.name === 'sign-in verifyCode')!;
    expect(check.attributes).to.include({ 'gatehouse.sign_in.outcome': 'signed-in' });
    expect(childrenOf(spans, check).map((s) => s.name)).to.include('sign-in finish');
    expect(childrenOf(spans, check).filter(isStatement), 'the code and its token are read under the check').to.not.be.empty;

    const recorded = everythingRecorded(spans);
    for (const secret of [PASSWORD, code, token, 'sam@example.com']) expect(recorded).to.not.include(secret);
  });

  it('says where a refused sign-in stopped, without marking the request failed (a 4xx is the caller’s)', async () => {
    const browser = await atLoginPage(server);
    exporter.reset();
    const res = await browser.postJson('/api/v1/account/login', { userName: 'tracy@example.com', password: 'Wrong-Horse-42!' });
    expect(res.status).to.equal(401);
    const spans = exporter.getFinishedSpans();
    const http = requestSpan(res.headers.get('x-request-id')!);
    expect(http.attributes['http.response.status_code']).to.equal(401);
    expect(http.status.code).to.equal(SpanStatusCode.UNSET);
    const counted = childrenOf(spans, http).find((s) => s.name === 'sign-in countFailure')!;
    expect(counted.attributes['gatehouse.sign_in.outcome']).to.be.a('string').and.match(/^account\./);
    expect(childrenOf(spans, http).map((s) => s.name), 'nothing after the refusal').to.not.include('sign-in finish');
    expect(everythingRecorded(spans)).to.not.include('Wrong-Horse-42!');
  });

  it('starts a trace of its own for each request that comes without a traceparent', async () => {
    exporter.reset();
    const first = await fetch(`${server.url}/api/v1/config`);
    const second = await fetch(`${server.url}/api/v1/config`);
    const [a, b] = [requestSpan(first.headers.get('x-request-id')!), requestSpan(second.headers.get('x-request-id')!)];
    expect(a.spanContext().traceId).to.not.equal(b.spanContext().traceId);
    expect(a.parentSpanContext).to.equal(undefined);
  });
});
