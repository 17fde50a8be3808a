import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserSessionInfo } from '@gatehouse/contracts';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { CHROME, FIREFOX, PortalBrowser, api, refresh, startIdp, userWithPassword, type Idp, type Tokens } from './testing/portal-browser.js';

describe('My security: sessions and devices', function () {
  this.timeout(120_000);
  let idp: Idp;

  before(async () => {
    // The back-channel logout URI below is on the loopback address.
    idp = await startIdp({ 'oidc.allowPrivateNetworkRequests': true });
  });
  after(() => idp?.app.close());

  const sessionsOf = async (token: string) => {
    const answer = await api<{ sessions: UserSessionInfo[] }>(idp, 'get', '/api/v1/profile/sessions', token);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body.sessions;
  };

  /** Makes a session's sign-in older than the ten minutes a factor change or a sign-out may follow it. */
  const age = (sessionUid: string) =>
    idp.context.dataSource.query(`UPDATE oidc_model_instances SET payload = jsonb_set(payload, '{loginTs}', to_jsonb(extract(epoch FROM now())::int - 3600)) WHERE model = 'Session' AND uid = $1`, [
      sessionUid,
    ]);

  /** One user signed in in two browsers: Firefox on Linux (a), Chrome on Windows (b). */
  async function twoBrowsers(): Promise<{ a: Tokens; b: Tokens; aId: string; bId: string; userId: string }> {
    const user = await userWithPassword(idp);
    const a = await new PortalBrowser(idp, FIREFOX).signIn(user.userName);
    const b = await new PortalBrowser(idp, CHROME).signIn(user.userName);
    const listed = await sessionsOf(a.access_token);
    const aId = listed.find((s) => s.current)!.id;
    const bId = listed.find((s) => !s.current)!.id;
    return { a, b, aId, bId, userId: user.id };
  }

  it('lists the two browsers a user signed in with, the asking one marked current, with browser, address, applications and how each signed in', async () => {
    const { a, b, aId, bId } = await twoBrowsers();
    const fromA = await sessionsOf(a.access_token);
    expect(fromA).to.have.length(2);
    expect(aId).to.not.equal(bId);
    const [seenA, seenB] = [fromA.find((s) => s.id === aId)!, fromA.find((s) => s.id === bId)!];
    expect(seenA).to.include({ current: true, browser: 'Firefox 133 on Linux' });
    expect(seenB).to.include({ current: false, browser: 'Chrome 131 on Windows' });
    for (const seen of [seenA, seenB]) {
      expect(seen.applications).to.deep.equal(['Portal']);
      expect(seen.amr).to.deep.equal(['pwd']);
      expect(seen.ip).to.be.a('string');
      expect(Date.parse(seen.startedAt)).to.be.closeTo(Date.now(), 60_000);
    }
    const fromB = await sessionsOf(b.access_token);
    expect(fromB.find((s) => s.current)!.id, 'each browser sees its own as current').to.equal(bId);
    expect(fromB.map((s) => s.id).sort()).to.deep.equal([aId, bId].sort());
  });

  it("ends the other browser's session for real: its refresh token and access token stop working, the asking browser's keep working", async () => {
    const { a, b, aId, bId, userId } = await twoBrowsers();
    const ended = await api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(bId)}`, a.access_token);
    expect(ended.status, JSON.stringify(ended.body)).to.equal(200);
    expect(ended.body).to.deep.include({ success: true, ended: 1 });

    // The access token first: this node had it in memory, and must have dropped it.
    expect((await api(idp, 'get', '/api/v1/profile/sessions', b.access_token)).status, "the ended browser's access token").to.equal(401);
    const refused = await refresh(idp, b.refresh_token);
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.equal('invalid_grant');

    const renewed = await refresh(idp, a.refresh_token);
    expect(renewed.status, JSON.stringify(renewed.body)).to.equal(200);
    expect((await sessionsOf(renewed.body.access_token!)).map((s) => s.id)).to.deep.equal([aId]);

    const rows = await idp.context.dataSource.query(`SELECT count(*)::int AS n FROM oidc_model_instances WHERE payload->>'sessionUid' = $1 OR (model = 'Session' AND uid = $1)`, [bId]);
    expect(rows[0].n, 'nothing of the ended session is left').to.equal(0);
    const [log] = await idp.context.dataSource.query(`SELECT user_id, metadata FROM system_logs WHERE operation = 'EndSession' AND metadata->>'sessionUid' = $1`, [bId]);
    expect(log).to.deep.include({ user_id: userId });
    expect(log.metadata).to.include({ current: false, browser: 'Chrome 131 on Windows' });
  });

  it('ends a session whose application holds tokens for offline use: its refresh token and this node\'s cached access token stop working', async () => {
    const user = await userWithPassword(idp);
    const a = await new PortalBrowser(idp, FIREFOX, true).signIn(user.userName);
    const b = await new PortalBrowser(idp, CHROME, true).signIn(user.userName);
    const bId = (await sessionsOf(b.access_token)).find((s) => s.current)!.id;
    // Offline tokens outlive their session: only their deletion, and every node dropping its copy, ends them.
    expect((await api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(bId)}`, a.access_token)).body).to.deep.include({ ended: 1 });
    expect((await api(idp, 'get', '/api/v1/profile/sessions', b.access_token)).status).to.equal(401);
    expect((await refresh(idp, b.refresh_token)).body.error).to.equal('invalid_grant');
    expect((await refresh(idp, a.refresh_token)).status).to.equal(200);
  });

  it("answers 404 for another user's session, an unknown one or one already ended, and leaves them alone", async () => {
    const { a, bId } = await twoBrowsers();
    const stranger = await userWithPassword(idp);
    const strangers = await new PortalBrowser(idp).signIn(stranger.userName);
    const strangerId = (await sessionsOf(strangers.access_token))[0]!.id;

    expect((await api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(strangerId)}`, a.access_token)).status).to.equal(404);
    expect((await api(idp, 'delete', '/api/v1/profile/sessions/no-such-session', a.access_token)).status).to.equal(404);
    expect((await refresh(idp, strangers.refresh_token)).status, "the other user's session still works").to.equal(200);

    expect((await api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(bId)}`, a.access_token)).status).to.equal(200);
    expect((await api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(bId)}`, a.access_token)).status, 'ended already').to.equal(404);
  });

  it('asks for the password first when the asking session signed in more than ten minutes ago', async () => {
    const { a, b, aId, bId } = await twoBrowsers();
    await age(aId);
    const stale = await api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(bId)}`, a.access_token);
    expect(stale.status).to.equal(403);
    expect(stale.body).to.include({ code: 'account.reauthentication_required' });
    expect((await api(idp, 'post', '/api/v1/profile/sessions/endOthers', a.access_token)).status).to.equal(403);
    expect((await refresh(idp, b.refresh_token)).status, 'nothing was ended').to.equal(200);
  });

  it('signs every other session out with endOthers, and the current one out when it ends itself', async () => {
    const user = await userWithPassword(idp);
    const browsers = [FIREFOX, CHROME, FIREFOX].map((ua) => new PortalBrowser(idp, ua));
    const tokens: Tokens[] = [];
    for (const browser of browsers) tokens.push(await browser.signIn(user.userName));
    const [mine, ...others] = tokens;

    const ended = await api(idp, 'post', '/api/v1/profile/sessions/endOthers', mine!.access_token);
    expect(ended.status, JSON.stringify(ended.body)).to.equal(200);
    expect(ended.body).to.deep.include({ success: true, ended: 2 });
    for (const other of others) expect((await refresh(idp, other.refresh_token)).body.error).to.equal('invalid_grant');
    const left = await sessionsOf(mine!.access_token);
    expect(left).to.have.length(1);
    expect(left[0]!.current).to.equal(true);
    expect((await api(idp, 'post', '/api/v1/profile/sessions/endOthers', mine!.access_token)).body).to.deep.include({ ended: 0 });

    const own = await api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(left[0]!.id)}`, mine!.access_token);
    expect(own.body).to.deep.include({ success: true, ended: 1 });
    expect((await refresh(idp, mine!.refresh_token)).body.error, 'this browser is signed out too').to.equal('invalid_grant');
  });

  describe('an application with a back-channel logout URI', () => {
    let listener: http.Server;
    const received: Array<Record<string, unknown>> = [];

    before(async () => {
      listener = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          received.push(decodeJwt(new URLSearchParams(body).get('logout_token')!));
          res.end();
        });
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const { port } = listener.address() as AddressInfo;
      await idp.context.dataSource.query(`UPDATE applications SET backchannel_logout_uri = $1 WHERE id = $2`, [`http://127.0.0.1:${port}/backchannel`, idp.portal]);
      idp.context.broadcast.publish('application.changed', { clientId: idp.portal });
    });
    after(async () => {
      await idp.context.dataSource.query(`UPDATE applications SET backchannel_logout_uri = NULL WHERE id = $1`, [idp.portal]);
      idp.context.broadcast.publish('application.changed', { clientId: idp.portal });
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    });

    it('is told when the user ends that session from My security: one logout token naming the user and that session, none for the asking one', async () => {
      received.length = 0;
      const { a, b, bId, userId } = await twoBrowsers();
      // Two requests at once: one ends the session, and the application hears of it once.
      const answers = await Promise.all([1, 2].map(() => api(idp, 'delete', `/api/v1/profile/sessions/${encodeURIComponent(bId)}`, a.access_token)));
      expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200]);
      expect(answers.map((answer) => (answer.body as { ended: number }).ended).sort()).to.deep.equal([0, 1]);
      expect(received, 'the logout token was sent before the answer').to.have.length(1);
      const [token] = received;
      expect(token).to.include({ sub: userId, sid: decodeJwt(b.id_token).sid, aud: idp.portal });
      expect(token!.events).to.have.property('http://schemas.openid.net/event/backchannel-logout');
      expect(token!.sid).to.not.equal(decodeJwt(a.id_token).sid);
    });
  });
});
