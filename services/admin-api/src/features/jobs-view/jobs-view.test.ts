import { randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, issueUserToken, randomToken, sha256, type AppContext, type User } from '@gatehouse/core';
import { JOBS_VIEW_PATH, PAGE_SESSION_COOKIE } from '@gatehouse/contracts';
import { grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../app.js';
import { PAT_PREFIX } from '../../auth/personal-access-token.js';
import { bearer, buildAdminWorld, call, userIn, type AdminWorld, type Persona } from '../../testing/admin-world.js';

const LINK = '/jobs/dashboard-link';

describe('the background jobs page: POST /api/v1/admin/jobs/dashboard-link, GET /api/v1/admin/jobs/dashboard', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  let db: AppContext['dataSource'];
  /** Seeded jobs by name: the newest is `running`. */
  const jobs: Record<string, string> = {};
  const fileId = randomUUID();

  /** An account holding `role` in the Global tenant, in English unless told. */
  async function holder(role = 'Administrator', language = 'en'): Promise<User> {
    const user = await userIn(w, w.areaA, { firstName: 'Grace', lastName: 'Hopper', language });
    await grant(db, { tenant: GLOBAL_TENANT_ID, user, roles: [w.identity.roleByName[role]!] });
    return user;
  }

  /** The one-time code the console gets for `user` (calling with the persona's token, in English unless told). */
  async function codeFor(user: User, persona: Persona = 'admin', lang?: string): Promise<string> {
    const res = await call(w, 'post', LINK, { as: persona, user, body: {}, lang });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return new URL(res.body.url, 'http://console.test').searchParams.get('code')!;
  }

  const redeem = (code: string, lang = 'en', server = w.server) =>
    request(server).get(`${JOBS_VIEW_PATH}?code=${encodeURIComponent(code)}`).set('Accept-Language', lang);

  /** The `name=value` of the session cookie an answer sets. */
  function sessionCookie(res: request.Response): string {
    const header = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0];
    expect(header, 'no Set-Cookie').to.be.a('string');
    return header!.split(';')[0]!;
  }

  /** Opens the page for `user` as the console's new tab does: link, code, cookie. */
  async function open(user: User, consoleLanguage?: string): Promise<string> {
    const res = await redeem(await codeFor(user, 'admin', consoleLanguage));
    expect(res.status, res.text).to.equal(303);
    return sessionCookie(res);
  }

  const view = (cookie: string | undefined, query = '', lang = 'en') => {
    const req = request(w.server).get(`${JOBS_VIEW_PATH}${query}`).set('Accept-Language', lang);
    return cookie === undefined ? req : req.set('Cookie', cookie);
  };

  /** The table row (its cells) holding `text`. */
  const rowOf = (html: string, text: string) => html.split('<tr>').find((row) => row.includes(text) && row.startsWith('<td>'))!;

  /** The job types of the table's rows, in order. */
  const listedTypes = (html: string) => [...html.matchAll(/<tr><td><a href="[^"]*" title="[^"]*">([^<]+)<\/a>/g)].map((m) => m[1]);

  async function job(fields: { type: string; status: string; createdAt: string; userId?: string | null; error?: string; payload?: object; result?: object; progress?: number; total?: number }) {
    const [row] = await db.query(
      `INSERT INTO background_jobs (type, status, user_id, progress, total, payload, result, error, created_at, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamptz, $9::timestamptz + interval '1 second',
               CASE WHEN $2::varchar IN ('Succeeded', 'Failed') THEN $9::timestamptz + interval '1 minute' END)
       RETURNING id`,
      [fields.type, fields.status, fields.userId ?? null, fields.progress ?? 0, fields.total ?? null, fields.payload ?? {}, fields.result ?? null, fields.error ?? null, fields.createdAt],
    );
    return row.id as string;
  }

  before(async () => {
    w = await buildAdminWorld();
    db = w.context.dataSource;
    const requester = await userIn(w, w.areaA, { userName: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    // 27 finished exports (a page and a bit), two failed reports, one running import: 30 jobs.
    for (let i = 0; i < 27; i += 1) {
      await job({ type: 'ExportMembers', status: 'Succeeded', createdAt: `2025-01-01T10:${String(i).padStart(2, '0')}:00Z`, userId: requester.id, result: { fileUrl: randomUUID() } });
    }
    jobs.plainFailure = await job({ type: 'AdminReport', status: 'Failed', createdAt: '2025-01-02T09:00:00Z', error: 'The database went away' });
    jobs.scriptFailure = await job({
      type: 'AdminReport',
      status: 'Failed',
      createdAt: '2025-01-02T10:00:00Z',
      userId: requester.id,
      error: '<script>alert("x")</script> & "quotes"',
    });
    jobs.running = await job({
      type: 'BulkInsertUsers',
      status: 'Running',
      createdAt: '2025-01-03T08:00:00Z',
      userId: requester.id,
      progress: 7,
      total: 10,
      payload: { fileId, password: 'Secret-Passw0rd!', areaName: 'Confidential area' },
      result: { success: false, totalElements: 10, importedElements: 7, errors: [{ row: 3, reason: 'Row reason with ada@example.com' }], warnings: [] },
    });
  });

  describe('the link', () => {
    it('hands an Administrator and God a same-origin link whose one-time code lives 60 seconds, stored as its SHA-256 only', async () => {
      for (const [persona, role] of [['admin', 'Administrator'], ['god', 'God']] as const) {
        const user = await holder(role);
        const res = await call(w, 'post', LINK, { as: persona, user, body: {} });
        expect(res.status).to.equal(200);
        expect(res.body.url).to.match(/^\/api\/v1\/admin\/jobs\/dashboard\?code=[A-Za-z0-9_-]{43}$/);
        const code = new URL(res.body.url, 'http://console.test').searchParams.get('code')!;
        const rows = await db.query(`SELECT purpose, token_hash, context, extract(epoch FROM expires_at - created_at) AS ttl FROM user_tokens WHERE user_id = $1`, [user.id]);
        expect(rows).to.have.length(1);
        expect(rows[0].purpose).to.equal('JobDashboard');
        expect(rows[0].token_hash).to.equal(sha256(code));
        expect(JSON.stringify(rows[0])).to.not.contain(code);
        expect(Number(rows[0].ttl)).to.be.within(59, 61);
      }
    });

    it('refuses a Manager, an AreaAdministrator and a TenantAdministrator (403), and issues them nothing', async () => {
      for (const persona of ['manager', 'areaAdmin', 'tenantAdmin'] as const) {
        const res = await call(w, 'post', LINK, { as: persona, body: {} });
        expect(res.status, persona).to.equal(403);
        expect(res.body.code).to.equal('errors.forbidden');
        const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM user_tokens WHERE user_id = $1`, [w.callers[persona].id]);
        expect(count, persona).to.equal(0);
      }
    });

    it("refuses a personal access token, even an Administrator's (403, in the caller's language)", async () => {
      const user = await holder();
      const token = `${PAT_PREFIX}${randomToken(32)}`;
      await db.query(`INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix) VALUES ('ci', $1, $2, $3, $4)`, [
        user.id,
        w.identity.id,
        sha256(token),
        token.slice(0, 12),
      ]);
      const res = await request(w.server).post(`/api/v1/admin${LINK}`).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'fr').send({});
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('pats.token_cannot_open_jobs_view');
      expect(res.body.message).to.equal('Un jeton d’accès personnel ne peut pas ouvrir les traitements en arrière-plan : ouvrez-les depuis la console');
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM user_tokens WHERE user_id = $1`, [user.id]);
      expect(count).to.equal(0);
    });

    it('is a bearer call like the rest of the admin API: no token, 401', async () => {
      const res = await request(w.server).post(`/api/v1/admin${LINK}`).send({});
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer');
    });
  });

  describe('the code', () => {
    it('opens a 30-minute cookie session (its hash only stored) and sends the browser on without the code (303)', async () => {
      const user = await holder();
      const code = await codeFor(user);
      const res = await redeem(code);
      expect(res.status).to.equal(303);
      expect(res.headers.location).to.equal(JOBS_VIEW_PATH);
      expect(res.headers['referrer-policy']).to.equal('no-referrer');
      expect(res.headers['cache-control']).to.equal('no-store');
      const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      expect(header).to.have.length(1);
      const [pair, ...attributes] = header[0]!.split('; ');
      const [name, value] = pair!.split('=') as [string, string];
      // Served over http here: no Secure flag and no __Secure- prefix (see the https case below).
      expect(name).to.equal(PAGE_SESSION_COOKIE);
      expect(value).to.match(/^[A-Za-z0-9_-]{43}$/).and.not.equal(code);
      expect(attributes).to.have.members([`Path=${JOBS_VIEW_PATH}`, 'Max-Age=1800', 'HttpOnly', 'SameSite=Strict']);

      const rows = await db.query(
        `SELECT token_hash, context, consumed_at IS NOT NULL AS consumed, extract(epoch FROM expires_at - created_at) AS ttl FROM user_tokens WHERE user_id = $1 ORDER BY created_at`,
        [user.id],
      );
      expect(rows).to.have.length(2);
      expect(rows[0]).to.deep.include({ token_hash: sha256(code), consumed: true });
      // The session keeps the console's language (English here), and nothing else.
      expect(rows[1]).to.deep.include({ token_hash: sha256(value), consumed: false, context: { session: true, language: 'en' } });
      expect(Number(rows[1].ttl)).to.be.within(1799, 1801);
      expect(JSON.stringify(rows)).to.not.contain(value);

      const page = await view(pair);
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('<h1>Background jobs</h1>');
    });

    it('over https: a __Secure- cookie with the Secure flag, which the page then takes', async () => {
      const context: AppContext = { ...w.context, config: { ...w.context.config, server: { ...w.context.config.server, publicUrl: 'https://id.example.com' } } };
      const server = createApp(context).callback();
      const res = await redeem(await codeFor(await holder()), 'en', server);
      expect(res.status).to.equal(303);
      const header = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!;
      expect(header).to.match(new RegExp(`^__Secure-${PAGE_SESSION_COOKIE}=[A-Za-z0-9_-]{43}; `));
      expect(header.split('; ')).to.include.members(['Secure', 'HttpOnly', 'SameSite=Strict', `Path=${JOBS_VIEW_PATH}`]);
      const page = await request(server).get(JOBS_VIEW_PATH).set('Cookie', header.split(';')[0]!).set('Accept-Language', 'en');
      expect(page.status).to.equal(200);
      // The plain name is not the session over https.
      const plain = await request(server).get(JOBS_VIEW_PATH).set('Cookie', header.split(';')[0]!.replace('__Secure-', '')).set('Accept-Language', 'en');
      expect(plain.status).to.equal(401);
    });

    it("is good once: used again, it is the expired-link page (401) in the caller's language, and sets no session", async () => {
      const code = await codeFor(await holder());
      expect((await redeem(code)).status).to.equal(303);
      const again = await redeem(code, 'fr');
      expect(again.status).to.equal(401);
      expect(again.headers['content-type']).to.match(/^text\/html/);
      expect(again.headers['set-cookie']).to.equal(undefined);
      expect(again.text).to.contain('<html lang="fr">');
      expect(again.text).to.contain('Le lien a expiré ou a déjà été utilisé. Ouvrez à nouveau les traitements en arrière-plan depuis la console.');
    });

    it('lets only one of two requests racing with one code through', async () => {
      const code = await codeFor(await holder());
      const answers = await Promise.all([redeem(code), redeem(code), redeem(code)]);
      expect(answers.map((res) => res.status).sort()).to.deep.equal([303, 401, 401]);
      expect(answers.filter((res) => res.headers['set-cookie'])).to.have.length(1);
    });

    it('refuses an expired code (401)', async () => {
      const code = await codeFor(await holder());
      await db.query(`UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256(code)]);
      const res = await redeem(code);
      expect(res.status).to.equal(401);
      expect(res.text).to.contain('The link has expired or has already been used. Open the background jobs again from the console.');
    });

    it('refuses a token of another purpose (a password reset link) and leaves it unused', async () => {
      const user = await holder();
      const { id, token } = await issueUserToken(w.context, { userId: user.id, purpose: 'PasswordReset', ttlSeconds: 600 });
      const res = await redeem(token);
      expect(res.status).to.equal(401);
      const [row] = await db.query(`SELECT consumed_at FROM user_tokens WHERE id = $1`, [id]);
      expect(row.consumed_at).to.equal(null);
    });

    it('never takes a session for a code, nor a code for a session', async () => {
      const user = await holder();
      const session = (await open(user)).split('=')[1]!;
      expect((await redeem(session)).status).to.equal(401);
      expect((await view(`${PAGE_SESSION_COOKIE}=${session}`)).status, 'the session still works').to.equal(200);
      const code = await codeFor(user);
      expect((await view(`${PAGE_SESSION_COOKIE}=${code}`)).status).to.equal(401);
      expect((await redeem(code)).status, 'the code was not used up by that').to.equal(303);
    });

    it('refuses the code of a user who lost the roles since it was issued (403), and opens no session', async () => {
      const user = await holder();
      const code = await codeFor(user);
      await db.query('DELETE FROM tenant_members WHERE user_id = $1', [user.id]);
      const res = await redeem(code);
      expect(res.status).to.equal(403);
      expect(res.headers['set-cookie']).to.equal(undefined);
      expect(res.text).to.contain('You no longer have permission to see the background jobs.');
    });

    it('refuses a malformed query with a page naming the field (400), not JSON', async () => {
      const res = await view(await open(await holder()), '?status=Nope');
      expect(res.status).to.equal(400);
      expect(res.headers['content-type']).to.match(/^text\/html/);
      expect(res.text).to.contain('The request is not valid').and.contain('status:');
    });
  });

  describe('the page', () => {
    let cookie: string;
    before(async () => {
      cookie = await open(await holder());
    });

    it('answers 401 without a session, and to a forged one (dropping that cookie)', async () => {
      const none = await view(undefined);
      expect(none.status).to.equal(401);
      expect(none.text).to.contain('The link has expired or has already been used.');
      const forged = await view(`${PAGE_SESSION_COOKIE}=${randomToken(32)}`);
      expect(forged.status).to.equal(401);
      expect(forged.text).to.contain('Your session on this page has ended. Open the background jobs again from the console.');
      expect(forged.headers['set-cookie']).to.deep.equal([`${PAGE_SESSION_COOKIE}=; Path=${JOBS_VIEW_PATH}; Max-Age=0; HttpOnly; SameSite=Strict`]);
      // Nor is a bearer token a way in: the page is not a bearer route.
      const withBearer = await request(w.server).get(JOBS_VIEW_PATH).set('Authorization', await bearer(w, 'god'));
      expect(withBearer.status).to.equal(401);
    });

    it('answers 401 once the session has expired', async () => {
      const own = await open(await holder());
      await db.query(`UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256(own.split('=')[1]!)]);
      expect((await view(own)).status).to.equal(401);
    });

    it('checks the roles on every request: a user who lost Administrator meanwhile gets 403, God is let in', async () => {
      const user = await holder();
      const own = await open(user);
      expect((await view(own)).status).to.equal(200);
      await db.query('DELETE FROM tenant_members WHERE user_id = $1', [user.id]);
      const res = await view(own);
      expect(res.status).to.equal(403);
      expect(res.text).to.contain('Access denied');
      expect(res.text).to.not.contain('Administrators report');
      expect((await view(await open(await holder('God')))).status).to.equal(200);
    });

    it("closes a locked account's session at once", async () => {
      const user = await holder();
      const own = await open(user);
      const lock = await call(w, 'get', `/api/v1/account/lock/${user.id}`, { as: 'god' });
      expect(lock.status, JSON.stringify(lock.body)).to.be.within(200, 299);
      expect((await view(own)).status).to.equal(401);
    });

    it('sends a strict content policy with a nonce and no script, no referrer and no caching', async () => {
      const res = await view(cookie);
      expect(res.status).to.equal(200);
      const policy = res.headers['content-security-policy'] as string;
      expect(policy).to.match(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]{24}'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/);
      const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
      expect(res.text).to.contain(`<style nonce="${nonce}">`);
      expect(res.text).to.not.match(/<script|<link|src=|style="/i);
      expect(res.headers['referrer-policy']).to.equal('no-referrer');
      expect(res.headers['cache-control']).to.equal('no-store');
      const next = await view(cookie);
      expect(next.headers['content-security-policy']).to.not.equal(policy);
      const refused = await view(undefined);
      expect(refused.headers['content-security-policy']).to.match(/^default-src 'none'; style-src 'nonce-/);
      expect(refused.headers['cache-control']).to.equal('no-store');
      expect(refused.headers['referrer-policy']).to.equal('no-referrer');
    });

    it('counts the jobs per status and lists them newest first, 25 a page, with requester, dates and progress', async () => {
      const res = await view(cookie);
      const counts = /<ul class="counts">(.*?)<\/ul>/s.exec(res.text)![1]!;
      const shown = [...counts.matchAll(/>(\w+)<strong>(\d+)<\/strong>/g)].map((m) => `${m[1]} ${m[2]}`);
      expect(shown).to.deep.equal(['Queued 0', 'Running 1', 'Succeeded 27', 'Failed 2', 'Cancelled 0']);
      expect(res.text).to.contain('<h2 id="jobs">30 jobs</h2>');
      const types = listedTypes(res.text);
      expect(types).to.have.length(25);
      expect(types.slice(0, 4), 'each job named in the page’s language').to.deep.equal(['Users import', 'Administrators report', 'Administrators report', 'Members export']);
      expect(res.text).to.contain('Page 1 of 2');
      expect(res.text).to.contain(`<a rel="next" href="${JOBS_VIEW_PATH}?page=2">`);
      const running = rowOf(res.text, 'Users import');
      expect(running).to.contain('Ada Lovelace <small>(ada@example.com)</small>');
      expect(running).to.contain('<progress value="7" max="10"></progress> 7 / 10');
      expect(running).to.contain('<time datetime="2025-01-03T08:00:00.000Z">');
      // A job nobody asked for is the system's.
      expect(rowOf(res.text, 'The database went away')).to.contain('The system');

      const second = await view(cookie, '?page=2');
      expect(listedTypes(second.text)).to.deep.equal(Array(5).fill('Members export'));
      expect(second.text).to.contain('Page 2 of 2').and.contain(`<a rel="prev" href="${JOBS_VIEW_PATH}">`);
    });

    it('filters by status and by type, keeping the filters in the paging links', async () => {
      const failed = await view(cookie, '?status=Failed');
      expect(listedTypes(failed.text)).to.deep.equal(['Administrators report', 'Administrators report']);
      expect(failed.text).to.contain('<option value="Failed" selected>');
      expect(failed.text).to.contain('<option value="ExportMembers">Members export</option>');
      const exports = await view(cookie, '?type=ExportMembers');
      expect(listedTypes(exports.text)).to.have.length(25);
      expect(exports.text).to.contain('<h2 id="jobs">27 jobs</h2>');
      expect(exports.text).to.contain(`href="${JOBS_VIEW_PATH}?type=ExportMembers&#38;page=2"`);
      const both = await view(cookie, '?status=Running&type=ExportMembers&page=');
      expect(listedTypes(both.text)).to.deep.equal([]);
      expect(both.text).to.contain('No job matches these filters');
      // The form's "All" sends blank values: no filter.
      expect(listedTypes((await view(cookie, '?status=&type=')).text)).to.have.length(25);
    });

    it('escapes everything a job carries: an error holding a script is text', async () => {
      const res = await view(cookie, '?status=Failed');
      expect(res.text).to.contain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#34;quotes&#34;');
      expect(res.text).to.not.contain('<script');
      const detail = await view(cookie, `?job=${jobs.scriptFailure}`);
      expect(detail.text).to.contain('<pre>&#60;script&#62;');
      expect(detail.text).to.not.contain('<script');
    });

    it("shows a job's detail: the payload's file ids only, a summary of its result, never the rest", async () => {
      const res = await view(cookie, `?status=Running&job=${jobs.running}`);
      const detail = /<section class="panel" aria-labelledby="job-detail">(.*?)<\/section>/s.exec(res.text)![1]!;
      expect(detail).to.contain(`<code>fileId</code>: <code>${fileId}</code>`);
      expect(detail).to.contain('Completed with errors<br>7 of 10 rows applied<br>Rows in error: 1');
      expect(res.text).to.not.contain('Secret-Passw0rd!');
      expect(res.text).to.not.contain('Confidential area');
      expect(res.text).to.not.contain('Row reason');
      expect(detail).to.contain(`<a href="${JOBS_VIEW_PATH}?status=Running">Close</a>`);
      const missing = await view(cookie, `?job=${randomUUID()}`);
      expect(missing.status).to.equal(200);
      expect(missing.text).to.contain('This job no longer exists');
    });

    it('speaks the language of the console that opened it, whatever the new tab’s browser says', async () => {
      const res = await view(await open(await holder('Administrator', 'en'), 'de'), '', 'en');
      expect(res.text).to.contain('<html lang="de">').and.contain('<h1>Hintergrundaufträge</h1>').and.contain('Fehlgeschlagen');
      // Job names, states and results too.
      expect(listedTypes(res.text).slice(0, 2)).to.deep.equal(['Import von Benutzern', 'Bericht der Administratoren']);
      const english = await view(await open(await holder('Administrator', 'de'), 'en'), `?status=Running&job=${jobs.running}`, 'de');
      expect(english.text).to.contain('<html lang="en">').and.contain('Completed with errors<br>7 of 10 rows applied');
    });

    it("speaks the user's saved language when the console said none", async () => {
      const user = await holder('Administrator', 'de');
      const link = await request(w.server).post(`/api/v1/admin${LINK}`).set('Authorization', await bearer(w, 'admin', user)).send({});
      const code = new URL(link.body.url as string, 'http://console.test').searchParams.get('code')!;
      const res = await view(sessionCookie(await redeem(code, 'en')), '', 'en');
      expect(res.text).to.contain('<html lang="de">').and.contain('<h1>Hintergrundaufträge</h1>');
    });

    it('leaves every other method on its path to the bearer check', async () => {
      const res = await request(w.server).post(JOBS_VIEW_PATH).set('Cookie', cookie).send({});
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer');
    });
  });
});
