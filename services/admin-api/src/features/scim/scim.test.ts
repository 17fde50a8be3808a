import { randomBytes } from 'node:crypto';
import { GLOBAL_TENANT_ID, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import SCIMMY from 'scimmy';
import request from 'supertest';
import { buildAdminWorld, call, logsWhere, userIn, type AdminWorld, type Application } from '../../testing/admin-world.js';

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

// An independent model of RFC 7643's resources, on the test side only: every resource answered must coerce.
SCIMMY.Schemas.User.definition.extend(SCIMMY.Schemas.EnterpriseUser.definition);
function conforms(resource: Record<string, unknown>, type: 'User' | 'Group'): void {
  const schema = type === 'User' ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group;
  expect(() => schema.definition.coerce(resource, 'out'), JSON.stringify(resource)).not.to.throw();
}

describe('SCIM provisioning (/scim/v2)', function () {
  this.timeout(60_000);
  let w: AdminWorld;
  let crm: Application;
  /** A token of the CRM for area A, issued by the administrator. */
  let token: string;

  /** A SCIM request with a bearer token. */
  function scim(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, bearer = token) {
    return request(w.server)[method](`/scim/v2${path}`).set('Authorization', `Bearer ${bearer}`).set('Accept-Language', 'en');
  }

  async function issue(app: Application, areaId: string, body: Record<string, unknown> = {}, as: 'admin' | 'god' = 'admin', user?: User): Promise<string> {
    const res = await call(w, 'post', `/applications/${app.id}/scimTokens`, { as, user, body: { name: unique('scim'), areaId, ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.token as string;
  }

  const newUser = (overrides: Record<string, unknown> = {}) => ({
    schemas: [USER],
    userName: `${unique('bjensen')}@example.com`,
    name: { givenName: 'Barbara', familyName: 'Jensen', formatted: 'Ms. Barbara J Jensen III' },
    ...overrides,
  });

  before(async () => {
    w = await buildAdminWorld();
    crm = await buildApplication(w.context.dataSource, { name: unique('crm'), displayName: 'CRM', roles: ['Reader'] });
    token = await issue(crm, w.areaA.id);
  });

  describe('tokens', () => {
    it('are issued by administrators for one area, shown once, kept as a hash, listed without their value, logged', async () => {
      const res = await call(w, 'post', `/applications/${crm.id}/scimTokens`, { body: { name: 'Entra', areaId: w.areaA.id } });
      expect(res.status).to.equal(201);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.body.token).to.match(/^gscim_[A-Za-z0-9_-]{43}$/);
      expect(res.body.scimUrl).to.match(/\/scim\/v2$/);
      expect(res.body.areaName).to.equal(w.areaA.name);
      const [row] = await w.context.dataSource.query('SELECT token_hash FROM scim_tokens WHERE id = $1', [res.body.id]);
      expect(row.token_hash).to.have.length(64).and.not.include(res.body.token);
      const list = await call(w, 'get', `/applications/${crm.id}/scimTokens`);
      const listed = list.body.items.find((item: { id: string }) => item.id === res.body.id);
      expect(listed).to.include({ name: 'Entra', hint: `gscim_…${(res.body.token as string).slice(-4)}` });
      expect(JSON.stringify(list.body)).not.to.include(res.body.token);
      const [log] = await logsWhere(w, 'tokenId', res.body.id);
      expect(log!.operation).to.equal('CreateScimToken');
      expect(JSON.stringify(log)).not.to.include(res.body.token);
    });

    it('are refused to the product’s own applications, for an unknown area, or with an expiry in the past', async () => {
      const own = await call(w, 'post', `/applications/${w.identity.id}/scimTokens`, { body: { name: 'x', areaId: w.areaA.id } });
      expect(own.status).to.equal(400);
      expect(own.body.code).to.equal('scimTokens.application_not_allowed');
      const area = await call(w, 'post', `/applications/${crm.id}/scimTokens`, { body: { name: 'x', areaId: '00000000-0000-4000-8000-000000000009' } });
      expect(area.status).to.equal(400);
      expect(area.body.errors[0].field).to.equal('areaId');
      const past = await call(w, 'post', `/applications/${crm.id}/scimTokens`, { body: { name: 'x', areaId: w.areaA.id, expiresAt: '2020-01-01T00:00:00Z' } });
      expect(past.status).to.equal(400);
      expect(past.body.errors[0].field).to.equal('expiresAt');
    });

    it('stop working when revoked, expired, when the application stops, or when the issuer is no longer an administrator', async () => {
      const probe = async (bearer: string) => (await scim('get', '/Users?count=1', bearer)).status;
      // Revoked.
      const revoked = await call(w, 'post', `/applications/${crm.id}/scimTokens`, { body: { name: 'r', areaId: w.areaA.id } });
      expect(await probe(revoked.body.token)).to.equal(200);
      expect((await call(w, 'delete', `/applications/${crm.id}/scimTokens/${revoked.body.id}`)).status).to.equal(204);
      expect(await probe(revoked.body.token)).to.equal(401);
      // Expired.
      const expiring = await call(w, 'post', `/applications/${crm.id}/scimTokens`, { body: { name: 'e', areaId: w.areaA.id } });
      await w.context.dataSource.query(`UPDATE scim_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.body.id]);
      const expired = await scim('get', '/Users', expiring.body.token);
      expect(expired.status).to.equal(401);
      expect(expired.headers['www-authenticate']).to.match(/^Bearer/);
      expect(expired.body.schemas).to.deep.equal([ERROR]);
      // The application stopped.
      const app = await buildApplication(w.context.dataSource, { name: unique('hr'), roles: ['Reader'] });
      const appToken = await issue(app, w.areaA.id);
      expect(await probe(appToken)).to.equal(200);
      await w.context.dataSource.query(`UPDATE applications SET status = 'Stopped' WHERE id = $1`, [app.id]);
      expect(await probe(appToken)).to.equal(401);
      // The issuer lost the Administrator role.
      const issuer = await userIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: issuer, roles: [w.identity.roleByName.Administrator!] });
      const issued = await issue(crm, w.areaA.id, {}, 'admin', issuer);
      expect(await probe(issued)).to.equal(200);
      await w.context.dataSource.query(`DELETE FROM tenant_members WHERE user_id = $1`, [issuer.id]);
      expect(await probe(issued)).to.equal(401);
      // Not a token at all, and none.
      expect(await probe('gscim_not-a-token-at-all-but-long-enough-xx')).to.equal(401);
      expect((await request(w.server).get('/scim/v2/Users')).status).to.equal(401);
    });
  });

  describe('discovery', () => {
    it('describes the service: ServiceProviderConfig, ResourceTypes and Schemas, as application/scim+json', async () => {
      const config = await request(w.server).get('/scim/v2/ServiceProviderConfig');
      expect(config.status).to.equal(200);
      expect(config.headers['content-type']).to.match(/^application\/scim\+json/);
      expect(config.body).to.deep.include({ patch: { supported: true }, etag: { supported: true }, sort: { supported: true }, changePassword: { supported: false } });
      expect(config.body.filter).to.deep.equal({ supported: true, maxResults: 200 });
      const types = await request(w.server).get('/scim/v2/ResourceTypes');
      expect(types.body.Resources.map((type: { name: string }) => type.name)).to.deep.equal(['User', 'Group']);
      expect((await request(w.server).get('/scim/v2/ResourceTypes/User')).body.schemaExtensions).to.deep.equal([{ schema: ENTERPRISE, required: false }]);
      const schemas = await request(w.server).get('/scim/v2/Schemas');
      expect(schemas.body.Resources.map((schema: { id: string }) => schema.id)).to.deep.equal([USER, ENTERPRISE, GROUP]);
      expect((await request(w.server).get(`/scim/v2/Schemas/${GROUP}`)).body.name).to.equal('Group');
      const unknown = await request(w.server).get('/scim/v2/Schemas/urn:nothing');
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.include({ schemas: [ERROR], status: '404' });
    });
  });

  describe('users', () => {
    it('creates a user of the token’s area, answers 201 with Location and ETag, and logs it as the application', async () => {
      const body = newUser({ externalId: 'ext-1', title: 'Tour Guide', emails: [{ value: 'bjensen@work.example.com', type: 'work', primary: true }, { value: 'babs@home.example.com', type: 'home' }] });
      const res = await scim('post', '/Users').set('Content-Type', 'application/scim+json').send(JSON.stringify(body));
      expect(res.status, res.text).to.equal(201);
      expect(res.headers['content-type']).to.match(/^application\/scim\+json/);
      expect(res.headers.location).to.equal(res.body.meta.location).and.match(new RegExp(`/scim/v2/Users/${res.body.id}$`));
      expect(res.headers.etag).to.equal(res.body.meta.version).and.match(/^W\/"/);
      expect(res.body).to.deep.include({ userName: body.userName, externalId: 'ext-1', title: 'Tour Guide', active: true, displayName: 'Barbara Jensen' });
      expect(res.body.emails).to.deep.equal([
        { value: 'bjensen@work.example.com', type: 'work', primary: true },
        { value: 'babs@home.example.com', type: 'home', primary: false },
      ]);
      expect(res.body.name).to.deep.equal({ givenName: 'Barbara', familyName: 'Jensen', formatted: 'Ms. Barbara J Jensen III' });
      conforms(res.body, 'User');
      const [row] = await w.context.dataSource.query('SELECT area_id, email, first_name, job_title, password_hash, locked FROM users WHERE id = $1', [res.body.id]);
      expect(row).to.deep.include({ area_id: w.areaA.id, email: 'bjensen@work.example.com', first_name: 'Barbara', job_title: 'Tour Guide', password_hash: null, locked: false });
      const [log] = await logsWhere(w, 'targetUserId', res.body.id);
      expect(log!.operation).to.equal('CreateUser');
      expect(log!.user_id).to.equal(w.callers.admin.id);
      expect(log!.metadata).to.include({ via: 'scim', applicationId: crm.id });
    });

    it('refuses what the product does not take, in SCIM’s error shape, writing nothing', async () => {
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [newUser({ userName: 'bjensen' }), 400, 'invalidValue'],
        [newUser({ name: { givenName: 'Only' } }), 400, 'invalidValue'],
        [newUser({ password: 't1meMa$heen' }), 400, 'invalidValue'],
        [newUser({ roles: [{ value: 'God' }] }), 400, 'mutability'],
        [newUser({ nickName: 42 }), 400, 'invalidValue'],
        [newUser({ favouriteColour: 'blue' }), 400, 'invalidPath'],
        [{ ...newUser(), schemas: ['urn:example:other'] }, 400, 'invalidSyntax'],
      ];
      const before = (await w.context.dataSource.query('SELECT count(*)::int AS n FROM users'))[0].n;
      for (const [body, status, scimType] of cases) {
        const res = await scim('post', '/Users').send(body);
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect(res.body, JSON.stringify(body)).to.deep.include({ schemas: [ERROR], status: String(status), scimType });
        expect(res.body.detail).to.be.a('string').and.not.empty;
      }
      const malformed = await scim('post', '/Users').set('Content-Type', 'application/scim+json').send('{"schemas": [');
      expect(malformed.status).to.equal(400);
      expect(malformed.body.schemas).to.deep.equal([ERROR]);
      expect((await w.context.dataSource.query('SELECT count(*)::int AS n FROM users'))[0].n).to.equal(before);
    });

    it('answers 409 uniqueness for a user name taken, in any area', async () => {
      const taken = await userIn(w, w.areaB);
      const res = await scim('post', '/Users').send(newUser({ userName: taken.userName }));
      expect(res.status).to.equal(409);
      expect(res.body.scimType).to.equal('uniqueness');
    });

    it('filters, sorts, pages and projects the area’s users only', async () => {
      const tag = unique('flt');
      for (const [given, family, title] of [
        ['Ann', 'Alpha', 'Engineer'],
        ['Bob', 'Bravo', 'Manager'],
        ['Cid', 'Charlie', null],
      ] as const) {
        const res = await scim('post', '/Users').send(newUser({ userName: `${given.toLowerCase()}.${tag}@example.com`, name: { givenName: given, familyName: family }, ...(title ? { title } : {}) }));
        expect(res.status).to.equal(201);
      }
      const outsider = await userIn(w, w.areaB, { userName: `zed.${tag}@example.com` });
      const list = async (query: string) => {
        const res = await scim('get', `/Users?${query}`);
        expect(res.status, res.text).to.equal(200);
        expect(res.body.schemas).to.deep.equal(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
        return res.body as { totalResults: number; itemsPerPage: number; startIndex: number; Resources: Array<Record<string, unknown>> };
      };
      const all = await list(`filter=${encodeURIComponent(`userName co "${tag}"`)}&sortBy=name.familyName&sortOrder=descending`);
      expect(all.totalResults).to.equal(3);
      expect(all.Resources.map((user) => (user.name as { familyName: string }).familyName)).to.deep.equal(['Charlie', 'Bravo', 'Alpha']);
      expect(all.Resources.some((user) => user.id === outsider.id)).to.equal(false);
      for (const user of all.Resources) conforms(user, 'User');
      const page = await list(`filter=${encodeURIComponent(`userName co "${tag}"`)}&sortBy=userName&startIndex=2&count=1`);
      expect(page).to.deep.include({ totalResults: 3, itemsPerPage: 1, startIndex: 2 });
      expect((page.Resources[0]!.userName as string).startsWith('bob.')).to.equal(true);
      const titled = await list(`filter=${encodeURIComponent(`userName co "${tag}" and title pr and not (title eq "manager")`)}`);
      expect(titled.Resources.map((user) => user.title)).to.deep.equal(['Engineer']);
      const email = await list(`filter=${encodeURIComponent(`emails[type eq "work" and value sw "cid.${tag}"]`)}`);
      expect(email.totalResults).to.equal(1);
      const projected = await list(`filter=${encodeURIComponent(`userName sw "ann.${tag}"`)}&attributes=userName,name.givenName`);
      expect(Object.keys(projected.Resources[0]!).sort()).to.deep.equal(['id', 'name', 'schemas', 'userName']);
      const excluded = await list(`filter=${encodeURIComponent(`userName sw "ann.${tag}"`)}&excludedAttributes=emails,meta`);
      expect(excluded.Resources[0]).to.not.have.any.keys('emails', 'meta');
      const none = await list(`filter=${encodeURIComponent(`userName eq "zed.${tag}@example.com"`)}`);
      expect(none.totalResults).to.equal(0);
      const bad = await scim('get', `/Users?filter=${encodeURIComponent('userName zz "x"')}`);
      expect(bad.status).to.equal(400);
      expect(bad.body.scimType).to.equal('invalidFilter');
    });

    it('replaces with PUT and patches with PATCH (Microsoft Entra’s forms included), guarded by If-Match', async () => {
      const created = (await scim('post', '/Users').send(newUser({ externalId: 'e-2' }))).body;
      const id = created.id as string;
      const put = await scim('put', `/Users/${id}`)
        .set('If-Match', created.meta.version)
        .send({ schemas: [USER, ENTERPRISE], userName: created.userName, name: { givenName: 'Babs', familyName: 'Jensen' }, nickName: 'Babs', [ENTERPRISE]: { department: 'Tours', employeeNumber: '701984' } });
      expect(put.status, put.text).to.equal(200);
      expect(put.body).to.deep.include({ nickName: 'Babs', displayName: 'Babs Jensen' });
      expect(put.body).not.to.have.property('externalId');
      expect(put.body[ENTERPRISE]).to.deep.equal({ department: 'Tours', employeeNumber: '701984' });
      expect(put.body.meta.version).not.to.equal(created.meta.version);
      conforms(put.body, 'User');
      // A stale version is refused and changes nothing.
      const stale = await scim('patch', `/Users/${id}`).set('If-Match', created.meta.version).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'nickName', value: 'B' }] });
      expect(stale.status).to.equal(412);
      // Entra: "Replace" capitalised, a path-less value, active as the string "False".
      const entra = await scim('patch', `/Users/${id}`).send({
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'title', value: 'Chief Guide' },
          { op: 'Replace', value: { 'name.familyName': 'Jensen-Smith' } },
          { op: 'Replace', path: 'active', value: 'False' },
        ],
      });
      expect(entra.status, entra.text).to.equal(200);
      expect(entra.body).to.deep.include({ title: 'Chief Guide', active: false, nickName: 'Babs' });
      expect(entra.body.name.familyName).to.equal('Jensen-Smith');
      const [row] = await w.context.dataSource.query('SELECT locked, last_name, job_title FROM users WHERE id = $1', [id]);
      expect(row).to.deep.equal({ locked: true, last_name: 'Jensen-Smith', job_title: 'Chief Guide' });
      expect((await logsWhere(w, 'targetUserId', id)).map((log) => log.operation)).to.include.members(['UpdateUser', 'LockUser']);
      // active true unlocks.
      const back = await scim('patch', `/Users/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] });
      expect(back.body.active).to.equal(true);
      // A conditional GET with the current version: 304.
      const unchanged = await scim('get', `/Users/${id}`).set('If-None-Match', back.body.meta.version);
      expect(unchanged.status).to.equal(304);
      // A rename (the directory's user principal name changed) keeps the e-mail; a name taken is 409.
      const newName = `${unique('renamed')}@example.com`;
      const rename = await scim('patch', `/Users/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'Replace', path: 'userName', value: newName }] });
      expect(rename.status, rename.text).to.equal(200);
      expect(rename.body.userName).to.equal(newName);
      expect((await logsWhere(w, 'targetUserId', id)).map((log) => log.operation)).to.include('ChangeUserName');
      const clash = await scim('patch', `/Users/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: w.callers.god.userName }] });
      expect(clash.status).to.equal(409);
      expect(clash.body.scimType).to.equal('uniqueness');
    });

    it('deletes by the product’s rules: sessions end, the user is gone, a second delete is 404', async () => {
      const created = (await scim('post', '/Users').send(newUser())).body;
      expect((await scim('delete', `/Users/${created.id}`)).status).to.equal(204);
      expect((await w.context.dataSource.query('SELECT id FROM users WHERE id = $1', [created.id])).length).to.equal(0);
      expect((await scim('delete', `/Users/${created.id}`)).status).to.equal(404);
      expect((await scim('get', `/Users/${created.id}`)).status).to.equal(404);
      expect((await logsWhere(w, 'targetUserId', created.id)).map((log) => log.operation)).to.include('DeleteUser');
    });
  });

  describe('groups', () => {
    it('creates a group with members, patches members (add, remove by filter, remove by value), renames, deletes', async () => {
      const ann = (await scim('post', '/Users').send(newUser())).body;
      const bob = (await scim('post', '/Users').send(newUser())).body;
      const cid = (await scim('post', '/Users').send(newUser())).body;
      const name = unique('Tour Guides');
      const created = await scim('post', '/Groups').send({ schemas: [GROUP], displayName: name, externalId: 'g-1', members: [{ value: ann.id }] });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.members).to.deep.equal([{ value: ann.id, $ref: `${created.body.meta.location.replace(/Groups\/.*$/, '')}Users/${ann.id}`, type: 'User', display: 'Barbara Jensen' }]);
      conforms(created.body, 'Group');
      const id = created.body.id as string;
      const added = await scim('patch', `/Groups/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: bob.id }, { value: cid.id }] }] });
      expect(added.status, added.text).to.equal(200);
      expect(added.body.members.map((member: { value: string }) => member.value).sort()).to.deep.equal([ann.id, bob.id, cid.id].sort());
      const removed = await scim('patch', `/Groups/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${ann.id}"]` }] });
      expect(removed.body.members.map((member: { value: string }) => member.value).sort()).to.deep.equal([bob.id, cid.id].sort());
      const entraRemove = await scim('patch', `/Groups/${id}?excludedAttributes=members`).send({ schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ value: bob.id }] }] });
      expect(entraRemove.status).to.equal(200);
      expect(entraRemove.body).not.to.have.property('members');
      const members = await w.context.dataSource.query('SELECT user_id FROM group_members WHERE group_id = $1', [id]);
      expect(members.map((m: { user_id: string }) => m.user_id)).to.deep.equal([cid.id]);
      const user = await scim('get', `/Users/${cid.id}`);
      expect(user.body.groups).to.deep.equal([{ value: id, $ref: `${user.body.meta.location.replace(/Users\/.*$/, '')}Groups/${id}`, display: name, type: 'direct' }]);
      const renamed = await scim('patch', `/Groups/${id}`).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: `${name} 2` }] });
      expect(renamed.body.displayName).to.equal(`${name} 2`);
      const listed = await scim('get', `/Groups?filter=${encodeURIComponent(`displayName eq "${name} 2"`)}&excludedAttributes=members`);
      expect(listed.body.totalResults).to.equal(1);
      expect(listed.body.Resources[0]).not.to.have.property('members');
      const byMember = await scim('get', `/Groups?filter=${encodeURIComponent(`members[value eq "${cid.id}"]`)}`);
      expect(byMember.body.Resources.map((group: { id: string }) => group.id)).to.deep.equal([id]);
      const duplicate = await scim('post', '/Groups').send({ schemas: [GROUP], displayName: `${name} 2` });
      expect(duplicate.status).to.equal(409);
      expect(duplicate.body.scimType).to.equal('uniqueness');
      expect((await scim('delete', `/Groups/${id}`)).status).to.equal(204);
      expect((await scim('get', `/Groups/${id}`)).status).to.equal(404);
      expect((await logsWhere(w, 'groupId', id)).map((log) => log.operation)).to.include.members(['CreateGroup', 'AddGroupMember', 'RemoveGroupMember', 'UpdateGroup', 'DeleteGroup']);
    });

    it('refuses a member that is a group or a user of another area, changing nothing', async () => {
      const name = unique('group');
      const group = (await scim('post', '/Groups').send({ schemas: [GROUP], displayName: name })).body;
      const outsider = await userIn(w, w.areaB);
      const other = await scim('patch', `/Groups/${group.id}`).send({ schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: outsider.id }] }] });
      expect(other.status).to.equal(400);
      expect(other.body.scimType).to.equal('invalidValue');
      const nested = await scim('patch', `/Groups/${group.id}`).send({ schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: group.id, type: 'Group' }] }] });
      expect(nested.status).to.equal(400);
      expect((await w.context.dataSource.query('SELECT count(*)::int AS n FROM group_members WHERE group_id = $1', [group.id]))[0].n).to.equal(0);
    });
  });

  describe('attacks', () => {
    it('a token of area A neither reads nor changes area B: its users and groups are 404, lists leave them out', async () => {
      const userB = await userIn(w, w.areaB);
      const groupB = await buildGroup(w.context.dataSource, { areaId: w.areaB.id });
      expect((await scim('get', `/Users/${userB.id}`)).status).to.equal(404);
      expect((await scim('put', `/Users/${userB.id}`).send(newUser({ userName: userB.userName }))).status).to.equal(404);
      expect((await scim('patch', `/Users/${userB.id}`).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).status).to.equal(404);
      expect((await scim('delete', `/Users/${userB.id}`)).status).to.equal(404);
      expect((await scim('get', `/Groups/${groupB.id}`)).status).to.equal(404);
      expect((await scim('delete', `/Groups/${groupB.id}`)).status).to.equal(404);
      const listed = await scim('get', `/Users?filter=${encodeURIComponent(`id eq "${userB.id}"`)}`);
      expect(listed.body.totalResults).to.equal(0);
      const [row] = await w.context.dataSource.query('SELECT locked FROM users WHERE id = $1', [userB.id]);
      expect(row.locked).to.equal(false);
    });

    it('cannot make or touch a God or an Administrator: no roles, no member of an administrators’ group, no change to an administrator', async () => {
      // An administrator of area A (and God), and a group of area A that holds the Administrator role.
      const admin = await userIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: admin, roles: [w.identity.roleByName.Administrator!] });
      const adminsGroup = await buildGroup(w.context.dataSource, { areaId: w.areaA.id });
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, group: adminsGroup, roles: [w.identity.roleByName.Administrator!] });
      const plain = (await scim('post', '/Users').send(newUser())).body;

      const roles = await scim('post', '/Users').send(newUser({ roles: [{ value: 'Administrator' }] }));
      expect(roles.status).to.equal(400);
      const join = await scim('patch', `/Groups/${adminsGroup.id}`).send({ schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: plain.id }] }] });
      expect(join.status).to.equal(403);
      expect((await w.context.dataSource.query('SELECT count(*)::int AS n FROM group_members WHERE group_id = $1', [adminsGroup.id]))[0].n).to.equal(0);
      const rename = await scim('patch', `/Groups/${adminsGroup.id}`).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] });
      expect(rename.status).to.equal(403);
      expect((await scim('delete', `/Groups/${adminsGroup.id}`)).status).to.equal(403);
      for (const change of [
        { op: 'replace', path: 'active', value: false },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'attacker@example.com' },
      ]) {
        const res = await scim('patch', `/Users/${admin.id}`).send({ schemas: [PATCH], Operations: [change] });
        expect(res.status, JSON.stringify(change)).to.equal(403);
      }
      expect((await scim('delete', `/Users/${admin.id}`)).status).to.equal(403);
      const [row] = await w.context.dataSource.query('SELECT locked, email FROM users WHERE id = $1', [admin.id]);
      expect(row).to.deep.equal({ locked: false, email: admin.email });
      // Its issuer is an administrator too: never locked nor deleted through their own token.
      expect((await scim('patch', `/Users/${w.callers.admin.id}`).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).status).to.equal(403);
    });

    it('cannot lock a user outside its area, nor its issuer', async () => {
      const issuer = await userIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: issuer, roles: [w.identity.roleByName.Administrator!] });
      const own = await issue(crm, w.areaA.id, {}, 'admin', issuer);
      const lockIssuer = await scim('patch', `/Users/${issuer.id}`, own).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
      expect(lockIssuer.status).to.equal(403);
      const userB = await userIn(w, w.areaB);
      const lockB = await scim('patch', `/Users/${userB.id}`, own).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
      expect(lockB.status).to.equal(404);
      const rows = await w.context.dataSource.query('SELECT locked FROM users WHERE id = ANY($1::uuid[])', [[issuer.id, userB.id]]);
      expect(rows.map((r: { locked: boolean }) => r.locked)).to.deep.equal([false, false]);
    });

    it('two PATCHes of one group racing both land (the group row is locked)', async () => {
      const group = (await scim('post', '/Groups').send({ schemas: [GROUP], displayName: unique('race') })).body;
      const a = (await scim('post', '/Users').send(newUser())).body;
      const b = (await scim('post', '/Users').send(newUser())).body;
      const results = await Promise.all(
        [a, b].map((user) => scim('patch', `/Groups/${group.id}`).send({ schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: user.id }] }] })),
      );
      expect(results.map((res) => res.status)).to.deep.equal([200, 200]);
      const members = await w.context.dataSource.query('SELECT user_id FROM group_members WHERE group_id = $1', [group.id]);
      expect(members.map((m: { user_id: string }) => m.user_id).sort()).to.deep.equal([a.id, b.id].sort());
    });
  });
});
