import { randomBytes } from 'node:crypto';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, randomToken, sha256, type Area, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildArea, buildGroup, buildTenant, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { PAT_PREFIX } from '../../auth/personal-access-token.js';
import { buildAdminWorld, logsWhere, userIn, type AdminWorld, type Application } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';

const tag = () => `t${randomBytes(4).toString('hex')}`;

describe('My Clients API (/api/v1/admin/clients)', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  let crm: Application;
  let t: string;
  /** The consultant's tree: root → parent (IdentityConsultant, inheritable) → 11 children → a grandchild; a sibling of the parent. */
  let root: Tenant;
  let parent: Tenant;
  let children: Tenant[];
  let grandchild: Tenant;
  let sibling: Tenant;
  /** IdentityConsultant held without inheritance: its child is out of scope. */
  let flat: Tenant;
  let flatChild: Tenant;
  /** A tenant where the consultant is a ServiceManager only. */
  let managed: Tenant;
  let consultant: User;
  let defaultArea: Area;
  let customersArea: Area;
  let systemArea: Area;

  const db = () => w.context.dataSource;
  const CONSULTANT_ROLES = ['IdentityConsultant', 'ServiceManager'];

  /** A request as `user`, with an admin-console token carrying `roles` (the consultant's unless told). */
  async function as(user: User, method: 'get' | 'post' | 'put', path: string, options: { roles?: string[]; body?: unknown; lang?: string } = {}) {
    const token = await mintAccessToken(w.context, w.key, { sub: user.id, roles: options.roles ?? CONSULTANT_ROLES });
    const req = request(w.server)[method](`/api/v1/admin/clients${path}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Accept-Language', options.lang ?? 'en');
    return options.body === undefined ? req : req.send(options.body as object);
  }
  const asConsultant = (method: 'get' | 'post' | 'put', path: string, options: { body?: unknown; lang?: string } = {}) => as(consultant, method, path, options);

  /** An area by name, created if this database has none yet (area names are unique). */
  async function areaNamed(fields: Partial<Area>): Promise<Area> {
    const [existing] = fields.isDefault
      ? await db().query(`SELECT id, name FROM areas WHERE is_default`)
      : await db().query(`SELECT id, name FROM areas WHERE name = $1`, [fields.name]);
    return existing ?? buildArea(db(), fields);
  }

  const member = async (tenant: Tenant, overrides: Partial<User> = {}, area: Area = w.areaA) => {
    const user = await userIn(w, area, overrides);
    await grant(db(), { tenant, user, roles: [crm.roleByName.Reader!] });
    return user;
  };

  const waitingRequest = (tenant: Tenant, user: User, status = 'WaitingForApprover') =>
    db().query(
      `INSERT INTO operation_requests (type, status, tenant_id, identity_type, user_id, created_by_id) VALUES ('Permission', $1, $2, 'User', $3, $4)`,
      [status, tenant.id, user.id, consultant.id],
    );

  const newUser = (overrides: Record<string, unknown> = {}) => {
    const name = tag();
    return { userName: `${name}@client.example`, email: `${name}@client.example`, firstName: 'Ana', lastName: 'Client', areaId: w.areaA.id, language: 'en', ...overrides };
  };

  before(async () => {
    w = await buildAdminWorld();
    t = tag();
    crm = await buildApplication(db(), { roles: ['Reader'] });
    const identity = w.identity.roleByName;
    root = await buildTenant(db(), { areaId: w.areaA.id, title: `${t} root` });
    parent = await buildTenant(db(), { areaId: w.areaA.id, parentId: root.id, title: `${t} parent` });
    sibling = await buildTenant(db(), { areaId: w.areaA.id, parentId: root.id, title: `${t} sibling` });
    children = [];
    // Created out of order: the answer's order is the titles'.
    for (const i of [7, 3, 10, 0, 5, 1, 9, 2, 8, 4, 6]) {
      children.push(await buildTenant(db(), { areaId: w.areaA.id, parentId: parent.id, title: `${t} child ${String(i).padStart(2, '0')}` }));
    }
    grandchild = await buildTenant(db(), { areaId: w.areaA.id, parentId: children[0]!.id, title: `${t} grandchild` });
    flat = await buildTenant(db(), { areaId: w.areaA.id, title: `${t} flat` });
    flatChild = await buildTenant(db(), { areaId: w.areaA.id, parentId: flat.id, title: `${t} flat child` });
    managed = await buildTenant(db(), { areaId: w.areaB.id, title: `${t} managed` });
    consultant = await userIn(w, w.areaA, { firstName: 'Carla', lastName: 'Consultant' });
    await grant(db(), { tenant: parent, user: consultant, roles: [identity.IdentityConsultant!], inheritable: true });
    await grant(db(), { tenant: flat, user: consultant, roles: [identity.IdentityConsultant!], inheritable: false });
    await grant(db(), { tenant: managed, user: consultant, roles: [identity.ServiceManager!] });
    defaultArea = await areaNamed({ name: `${t}-default`, isDefault: true });
    customersArea = await areaNamed({ name: 'Customers' });
    systemArea = await buildArea(db(), { name: `${t}-system`, isSystem: true });
  });

  describe('GET /clients/areas', () => {
    it('gives a consultant every area but the system ones, by name, and refuses a caller without a consulting role', async () => {
      const res = await asConsultant('get', '/areas');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const names = res.body.items.map((area: { name: string }) => area.name);
      expect(names).to.include.members([defaultArea.name, customersArea.name]);
      expect(names).to.not.include(systemArea.name);
      expect(names).to.deep.equal([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(res.body.items.every((area: { system: boolean }) => !area.system)).to.equal(true);
      expect(res.body.count).to.equal(names.length);
      expect((await as(w.callers.manager, 'get', '/areas', { roles: ['Manager'] })).status).to.equal(403);
    });
  });

  describe('GET /clients/tenants', () => {
    it('lists the tenants where the caller is a consultant, children by inheritance included, by title, 10 at a time', async () => {
      const res = await asConsultant('get', `/tenants?searchQuery=${t}&skip=0&take=10`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // parent, its 11 children and the grandchild, and the tenant held without inheritance.
      expect(res.body.count).to.equal(14);
      expect(res.body.items).to.have.length(10);
      expect(res.body.items[0]).to.deep.equal({ id: children.find((c) => c.title.endsWith('child 00'))!.id, title: `${t} child 00` });
      const all = await asConsultant('get', `/tenants?searchQuery=${t}&skip=10&take=10`);
      const titles = [...res.body.items, ...all.body.items].map((item: { title: string }) => item.title);
      expect(titles).to.deep.equal([...titles].sort());
      expect(titles).to.include.members([`${t} parent`, `${t} grandchild`, `${t} flat`]);
      expect(titles).to.not.include.members([`${t} root`, `${t} sibling`, `${t} flat child`, `${t} managed`]);
      expect(all.body.items).to.have.length(4);
    });

    it('searches the titles, case-insensitively and literally', async () => {
      const res = await asConsultant('get', `/tenants?searchQuery=${t.toUpperCase()}%20GRAND`);
      expect(res.body.items.map((i: { title: string }) => i.title)).to.deep.equal([`${t} grandchild`]);
      expect((await asConsultant('get', `/tenants?searchQuery=${t}%25`)).body.count).to.equal(0);
      // The product's own list names work too.
      expect((await asConsultant('get', `/tenants?$search=${t}%20sib&top=5`)).body.count).to.equal(0);
    });

    it('gives an administrator and God every tenant but the Global one; a consultant in the Global tenant too', async () => {
      for (const persona of ['admin', 'god'] as const) {
        const res = await as(w.callers[persona], 'get', `/tenants?searchQuery=${t}&take=100`, { roles: persona === 'admin' ? ['Administrator'] : ['God'] });
        expect(res.body.count, persona).to.equal(18);
      }
      const global = await userIn(w, w.areaA);
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: global, roles: [w.identity.roleByName.IdentityConsultant!] });
      const res = await as(global, 'get', '/tenants?take=1000', { roles: ['IdentityConsultant'] });
      expect(res.body.items.map((i: { id: string }) => i.id)).to.include.members([root.id, sibling.id, managed.id]).and.not.include(GLOBAL_TENANT_ID);
    });

    it('counts IdentityConsultant held through a group', async () => {
      const viaGroup = await userIn(w, w.areaA);
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [viaGroup] });
      await grant(db(), { tenant: sibling, group, roles: [w.identity.roleByName.IdentityConsultant!] });
      const res = await as(viaGroup, 'get', `/tenants?searchQuery=${t}`, { roles: ['IdentityConsultant'] });
      expect(res.body.items.map((i: { id: string }) => i.id)).to.deep.equal([sibling.id]);
    });

    it('refuses a caller without IdentityConsultant (a ServiceManager only) with 403', async () => {
      const manager = await userIn(w, w.areaA);
      await grant(db(), { tenant: managed, user: manager, roles: [w.identity.roleByName.ServiceManager!] });
      const res = await as(manager, 'get', '/tenants', { roles: ['ServiceManager'] });
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('You do not have permission to perform this action');
    });
  });

  describe('GET /clients/{tenantId}/users', () => {
    let internal: User;
    let waiting: User;
    let draft: { id: string };

    before(async () => {
      internal = await member(parent, { firstName: 'Ines', lastName: 'Internal', userType: 1, jobTitle: 'Buyer', teams: Array.from({ length: 12 }, (_, i) => `team ${i}`) });
      await waitingRequest(parent, internal, 'Applied');
      waiting = await userIn(w, w.areaB, { firstName: 'Walter', lastName: 'Waiting', userType: 2 });
      await waitingRequest(parent, waiting);
      const viaGroup = await userIn(w, w.areaA, { firstName: 'Grace', lastName: 'Group' });
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [viaGroup] });
      await grant(db(), { tenant: parent, group, roles: [crm.roleByName.Reader!] });
      await member(children[0]!, { firstName: 'Chloe', lastName: 'Child' });
      await member(sibling, { firstName: 'Sam', lastName: 'Sibling' });
      draft = (await asConsultant('post', `/${parent.id}/users`, { body: newUser({ firstName: 'Dora', lastName: 'Draft' }) })).body;
    });

    it('lists the own user members, users waiting for approval and drafts created for the tenant, with the table columns', async () => {
      const res = await asConsultant('get', `/${parent.id}/users?orderBy=fullName%20asc&take=50`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // The consultant holds their role through an own membership: a member like any other.
      expect(res.body.items.map((u: { fullName: string }) => u.fullName)).to.deep.equal(['Carla Consultant', 'Dora Draft', 'Ines Internal', 'Walter Waiting']);
      const byId = Object.fromEntries(res.body.items.map((u: { id: string }) => [u.id, u]));
      expect(byId[internal.id]).to.include({ userName: internal.userName, email: internal.email, jobTitle: 'Buyer', status: 'Applied', hasPendingOperationRequest: false, userType: 1, locked: false, draft: false });
      expect(byId[internal.id].teams).to.have.length(12);
      expect(byId[internal.id].modifiedOn).to.match(/^\d{4}-\d\d-\d\dT/);
      expect(byId[waiting.id]).to.include({ status: 'Waiting', hasPendingOperationRequest: true, userType: 2 });
      expect(byId[draft.id]).to.include({ draft: true, status: 'Draft', userType: 2 });
    });

    it('shows a draft as Draft until a request for it is submitted, then as Waiting', async () => {
      // A tenant of its own (inheriting the consultant's role), so that the other tests' lists stay as they are.
      const tenant = await buildTenant(db(), { areaId: w.areaA.id, parentId: parent.id, title: `${t} submitted` });
      const created = (await asConsultant('post', `/${tenant.id}/users`, { body: newUser({ firstName: 'Sue', lastName: 'Submitted' }) })).body;
      expect(created.status).to.equal('Draft');
      const statusOf = async () => (await asConsultant('get', `/${tenant.id}/users`)).body.items.map((u: { status: string }) => u.status);
      expect(await statusOf()).to.deep.equal(['Draft']);
      await waitingRequest(tenant, created);
      expect(await statusOf()).to.deep.equal(['Waiting']);
    });

    it('filters by user type and searches', async () => {
      const internals = await asConsultant('get', `/${parent.id}/users?userType=1`);
      expect(internals.body.items.map((u: { id: string }) => u.id)).to.have.members([internal.id, consultant.id]);
      const externals = await asConsultant('get', `/${parent.id}/users?userType=2`);
      expect(externals.body.items.map((u: { id: string }) => u.id)).to.have.members([waiting.id, draft.id]);
      expect((await asConsultant('get', `/${parent.id}/users?searchQuery=walter`)).body.items.map((u: { id: string }) => u.id)).to.deep.equal([waiting.id]);
      expect((await asConsultant('get', `/${parent.id}/users?userType=3`)).status).to.equal(400);
    });

    it('pages in SQL with the total', async () => {
      const res = await asConsultant('get', `/${parent.id}/users?orderBy=fullName%20asc&skip=2&take=1`);
      expect(res.body).to.deep.include({ count: 4 });
      expect(res.body.items.map((u: { id: string }) => u.id)).to.deep.equal([internal.id]);
    });

    it('answers 404 for a tenant outside the caller’s scope, where they are ServiceManager, the Global tenant, or none', async () => {
      for (const tenant of [sibling.id, root.id, flatChild.id, managed.id, GLOBAL_TENANT_ID, '00000000-0000-4000-8000-000000000001']) {
        const res = await asConsultant('get', `/${tenant}/users`);
        expect(res.status, tenant).to.equal(404);
        expect(res.body.message).to.equal('Not found');
      }
    });

    it('lets a consultant of an ancestor, by inheritance, and an administrator see a child tenant’s users', async () => {
      expect((await asConsultant('get', `/${grandchild.id}/users`)).status).to.equal(200);
      expect((await as(w.callers.admin, 'get', `/${sibling.id}/users`, { roles: ['Administrator'] })).body.count).to.equal(1);
    });
  });

  describe('POST /clients/{tenantId}/users', () => {
    const create = (body: unknown, lang = 'en', tenant: Tenant = parent) => asConsultant('post', `/${tenant.id}/users`, { body, lang });
    const fieldErrors = (res: request.Response) => Object.fromEntries((res.body.errors ?? []).map((e: { field: string; message: string }) => [e.field, e.message]));

    it('creates a draft (pending approval) external user for the tenant, not yet a member, and logs it', async () => {
      const body = newUser({ phoneNumber: '+33 1 23 45 67 89' });
      const res = await create(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ userName: body.userName, email: body.email, draft: true, userType: 2, status: 'Draft', phoneNumber: '+33 1 23 45 67 89', hasSignedIn: false });
      const [row] = await db().query(`SELECT draft, user_type, created_for_tenant_id, password_hash FROM users WHERE id = $1`, [res.body.id]);
      // A draft cannot sign in (the provider answers 'User pending approval.'), and has no password until invited.
      expect(row).to.deep.equal({ draft: true, user_type: 2, created_for_tenant_id: parent.id, password_hash: null });
      const [members] = await db().query(`SELECT count(*)::int AS n FROM tenant_members WHERE user_id = $1`, [res.body.id]);
      expect(members.n).to.equal(0);
      const [log] = await logsWhere(w, 'targetUserId', res.body.id);
      expect(log).to.deep.include({ operation: 'CreateUser', user_id: consultant.id, tenant_id: parent.id, tenant_name: parent.title });
      expect(log!.metadata).to.include({ draft: true, userType: 2, tenantId: parent.id, targetUserName: body.userName });
    });

    it('makes a user of a group domain internal (the GroupDomains security setting)', async () => {
      await db().query(`INSERT INTO security_configs (title, body) VALUES ('GroupDomains', $1) ON CONFLICT (title) DO UPDATE SET body = excluded.body`, [
        { domains: ['group.example'], domainFragment: null },
      ]);
      w.context.broadcast.publish('settings.changed', {});
      const name = tag();
      const internal = await create(newUser({ userName: `${name}@Group.Example`, email: `${name}@Group.Example` }));
      expect(internal.body).to.include({ userType: 1 });
      const sub = await create(newUser({ email: `${tag()}@paris.group.example` }));
      expect(sub.body).to.include({ userType: 1 });
      expect((await create(newUser({ email: `${tag()}@notgroup.example` }))).body).to.include({ userType: 2 });
    });

    it('names each missing field with the spec’s message, in the caller’s language', async () => {
      const res = await create({});
      expect(res.status).to.equal(400);
      expect(fieldErrors(res)).to.deep.include({
        userName: 'Please input your username!',
        areaId: 'Area required',
        firstName: 'Please input your first name!',
        lastName: 'Please input your last name!',
        language: 'Please select your preferred language!',
        email: 'Please input your email!',
      });
      const fr = await create({}, 'fr');
      expect(fieldErrors(fr).areaId).to.equal('Zone obligatoire');
      expect(fieldErrors(await create(newUser({ email: 'not-an-address' }))).email).to.equal('Invalid email address.');
    });

    it('refuses free-mail addresses (gmail, yahoo, hotmail), whatever the case or subdomain', async () => {
      for (const email of ['ana@gmail.com', 'ANA@GMail.COM', 'ana@mail.yahoo.fr', 'ana@hotmail.co.uk', 'ana@eu.gmail.com']) {
        const res = await create(newUser({ email }));
        expect(res.status, email).to.equal(400);
        expect(fieldErrors(res), email).to.deep.equal({ email: 'Invalid email address.' });
      }
      expect(fieldErrors(await create(newUser({ userName: 'ana@Hotmail.com' })))).to.deep.equal({ userName: 'Invalid email address.' });
    });

    it('takes work position, manager and departments in the default area and the Customers area only', async () => {
      const profile = { jobTitle: 'Buyer', manager: 'Marc', teams: ['Sales', 'Sales', 'Ops'] };
      for (const area of [defaultArea, customersArea]) {
        const res = await create(newUser({ areaId: area.id, ...profile }));
        expect(res.status, area.name).to.equal(201);
        expect(res.body).to.deep.include({ jobTitle: 'Buyer', manager: 'Marc', teams: ['Sales', 'Ops'] });
      }
      const refused = await create(newUser({ areaId: w.areaA.id, ...profile }));
      expect(refused.status).to.equal(400);
      expect(fieldErrors(refused)).to.deep.equal({
        jobTitle: 'jobTitle can only be set for users of the default area or of the Customers area',
        manager: 'manager can only be set for users of the default area or of the Customers area',
        teams: 'teams can only be set for users of the default area or of the Customers area',
      });
      // Empty values are no values.
      expect((await create(newUser({ areaId: w.areaA.id, jobTitle: '', manager: null, teams: [] }))).status).to.equal(201);
    });

    it('refuses a system area and an unknown one', async () => {
      expect(fieldErrors(await create(newUser({ areaId: systemArea.id })))).to.deep.equal({ areaId: 'Users cannot be created in this area' });
      expect(fieldErrors(await create(newUser({ areaId: '00000000-0000-4000-8000-000000000002' })))).to.deep.equal({ areaId: 'Area not found' });
    });

    it('answers 409 for a user name already taken, whatever its case', async () => {
      const existing = await userIn(w, w.areaB);
      const res = await create(newUser({ userName: existing.userName.toUpperCase() }));
      expect(res.status).to.equal(409);
      expect(res.body.message).to.equal('A user with this user name already exists');
    });

    it('answers 404 in a tenant where the caller is not a consultant (ServiceManager there), and creates nothing', async () => {
      const body = newUser();
      for (const tenant of [managed, sibling]) expect((await create(body, 'en', tenant)).status).to.equal(404);
      const [row] = await db().query(`SELECT count(*)::int AS n FROM users WHERE normalized_user_name = $1`, [body.userName.toLowerCase()]);
      expect(row.n).to.equal(0);
    });
  });

  describe('PUT /clients/{tenantId}/users/{id}', () => {
    const body = (user: { userName: string; email: string }, overrides: Record<string, unknown> = {}) => ({
      userName: user.userName,
      email: user.email,
      firstName: 'Edited',
      lastName: 'Name',
      areaId: w.areaA.id,
      language: 'de',
      ...overrides,
    });

    it('changes a member’s fields and logs the changes', async () => {
      const user = await member(parent);
      const res = await asConsultant('put', `/${parent.id}/users/${user.id}`, { body: body(user, { phoneNumber: '123' }) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ firstName: 'Edited', lastName: 'Name', language: 'de', phoneNumber: '123' });
      const logs = await logsWhere(w, 'targetUserId', user.id);
      expect(logs.at(-1)).to.deep.include({ operation: 'UpdateUser', user_id: consultant.id, tenant_id: parent.id });
      expect(logs.at(-1)!.metadata.changes).to.have.keys('firstName', 'lastName', 'language', 'phoneNumber');
    });

    it('changes the user name of a draft, never of a user who has signed in', async () => {
      const draft = (await asConsultant('post', `/${parent.id}/users`, { body: newUser() })).body;
      const renamed = `${tag()}@client.example`;
      const res = await asConsultant('put', `/${parent.id}/users/${draft.id}`, { body: body(draft, { userName: renamed }) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.userName).to.equal(renamed);

      const signedIn = await member(parent, { lastLoginAt: new Date() });
      const refused = await asConsultant('put', `/${parent.id}/users/${signedIn.id}`, { body: body(signedIn, { userName: `${tag()}@client.example` }) });
      expect(refused.status).to.equal(400);
      expect(refused.body.errors).to.deep.include({ field: 'userName', code: 'clients.user_name_fixed', message: 'The user name cannot be changed once the user has signed in' });

      const taken = await asConsultant('put', `/${parent.id}/users/${draft.id}`, { body: body(draft, { userName: signedIn.userName }) });
      expect(taken.status).to.equal(409);
    });

    it('applies the creation rules to a changed e-mail and to the default-area fields, keeps what the user already had', async () => {
      const gmail = await member(parent, { email: `${tag()}@gmail.com`, jobTitle: 'Old title' });
      // Kept as they were: accepted.
      expect((await asConsultant('put', `/${parent.id}/users/${gmail.id}`, { body: body(gmail, { jobTitle: 'Old title' }) })).status).to.equal(200);
      const other = await member(parent);
      const res = await asConsultant('put', `/${parent.id}/users/${other.id}`, { body: body(other, { email: `${tag()}@yahoo.com`, jobTitle: 'New' }) });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.have.members(['email', 'jobTitle']);
    });

    it('answers 404 for a user outside the tenant (a child tenant’s member, a group member) or a tenant outside the scope', async () => {
      const childMember = await member(children[1]!);
      expect((await asConsultant('put', `/${parent.id}/users/${childMember.id}`, { body: body(childMember) })).status).to.equal(404);
      const viaGroup = await userIn(w, w.areaA);
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [viaGroup] });
      await grant(db(), { tenant: parent, group, roles: [crm.roleByName.Reader!] });
      expect((await asConsultant('put', `/${parent.id}/users/${viaGroup.id}`, { body: body(viaGroup) })).status).to.equal(404);
      const siblingMember = await member(sibling);
      expect((await asConsultant('put', `/${sibling.id}/users/${siblingMember.id}`, { body: body(siblingMember) })).status).to.equal(404);
      const before = await db().query(`SELECT first_name FROM users WHERE id = $1`, [siblingMember.id]);
      expect(before[0].first_name).to.not.equal('Edited');
    });

    it('refuses to let a consultant change an Administrator’s or God’s account (403)', async () => {
      for (const role of ['Administrator', 'God']) {
        const target = await member(parent);
        await grant(db(), { tenant: GLOBAL_TENANT_ID, user: target, roles: [w.identity.roleByName[role]!] });
        const res = await asConsultant('put', `/${parent.id}/users/${target.id}`, { body: body(target) });
        expect(res.status, role).to.equal(403);
      }
    });
  });

  describe('taking over an account: a new e-mail address, then an invitation', () => {
    const body = (user: User, overrides: Record<string, unknown> = {}) => ({
      userName: user.userName,
      email: user.email,
      firstName: 'Edited',
      lastName: 'Name',
      areaId: w.areaA.id,
      language: 'en',
      ...overrides,
    });
    const thief = () => `${tag()}@client.example`;
    const storedEmail = async (user: User) => (await db().query(`SELECT email FROM users WHERE id = $1`, [user.id]))[0].email;
    const mailsTo = async (user: User) => db().query(`SELECT 1 FROM mail_outbox WHERE to_address = $1 AND template = 'invitation'`, [user.email]);

    it('refuses a consultant the e-mail and the invitation of a member holding roles outside their clients, and keeps the rest editable', async () => {
      const victim = await member(parent);
      await grant(db(), { tenant: sibling, user: victim, roles: [crm.roleByName.Reader!] });
      const moved = await asConsultant('put', `/${parent.id}/users/${victim.id}`, { body: body(victim, { email: thief() }) });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(403);
      expect(moved.body).to.include({ code: 'clients.identity_owned_elsewhere' });
      expect(await storedEmail(victim)).to.equal(victim.email);
      const invited = await asConsultant('post', `/${parent.id}/users/${victim.id}/invite`);
      expect(invited.status).to.equal(403);
      expect(await mailsTo(victim)).to.have.length(0);
      // A name is no account: the consultant still corrects it.
      expect((await asConsultant('put', `/${parent.id}/users/${victim.id}`, { body: body(victim) })).status).to.equal(200);
    });

    it('refuses it for a member who has signed in (whose invitation would reset a password in use), through a group role too', async () => {
      const active = await member(parent, { lastLoginAt: new Date() });
      const moved = await asConsultant('put', `/${parent.id}/users/${active.id}`, { body: body(active, { email: thief() }) });
      expect(moved.status).to.equal(403);
      expect((await asConsultant('post', `/${parent.id}/users/${active.id}/invite`)).status).to.equal(403);
      expect(await mailsTo(active)).to.have.length(0);

      const grouped = await member(parent);
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [grouped] });
      await grant(db(), { tenant: managed, group, roles: [crm.roleByName.Reader!] });
      expect((await asConsultant('put', `/${parent.id}/users/${grouped.id}`, { body: body(grouped, { email: thief() }) })).status).to.equal(403);
    });

    it('lets a consultant move and invite a member known only to their clients, and an administrator any member', async () => {
      const fresh = await member(children[2]!);
      await grant(db(), { tenant: parent, user: fresh, roles: [crm.roleByName.Reader!] });
      const email = thief();
      const moved = await asConsultant('put', `/${parent.id}/users/${fresh.id}`, { body: body(fresh, { email }) });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      expect(await storedEmail(fresh)).to.equal(email);

      const elsewhere = await member(parent, { lastLoginAt: new Date() });
      await grant(db(), { tenant: sibling, user: elsewhere, roles: [crm.roleByName.Reader!] });
      const byAdmin = await as(w.callers.admin, 'put', `/${parent.id}/users/${elsewhere.id}`, { roles: ['Administrator'], body: body(elsewhere, { email: thief() }) });
      expect(byAdmin.status, JSON.stringify(byAdmin.body)).to.equal(200);
    });
  });

  describe('POST /clients/{tenantId}/users/{id}/invite', () => {
    it('mails the invitation to a member of the tenant', async () => {
      const user = await member(parent, { language: 'fr' });
      const res = await asConsultant('post', `/${parent.id}/users/${user.id}/invite`, { lang: 'fr' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, message: 'E-mail d’invitation envoyé avec succès.' });
      const mails = await db().query(`SELECT template FROM mail_outbox WHERE to_address = $1`, [user.email]);
      expect(mails).to.deep.equal([{ template: 'invitation' }]);
    });

    it('refuses a user pending approval with 409, and sends nothing', async () => {
      const draft = (await asConsultant('post', `/${parent.id}/users`, { body: newUser() })).body;
      const res = await asConsultant('post', `/${parent.id}/users/${draft.id}/invite`);
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ code: 'clients.draft_not_invitable', message: 'This user is pending approval: they can be invited once their access request is approved' });
      expect(await db().query(`SELECT 1 FROM mail_outbox WHERE to_address = $1`, [draft.email])).to.have.length(0);
    });

    it('answers 404 outside the tenant and 403 for an administrator’s account', async () => {
      const outsider = await member(managed);
      expect((await asConsultant('post', `/${managed.id}/users/${outsider.id}/invite`)).status).to.equal(404);
      expect((await asConsultant('post', `/${parent.id}/users/${outsider.id}/invite`)).status).to.equal(404);
      const admin = await member(parent);
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: admin, roles: [w.identity.roleByName.Administrator!] });
      expect((await asConsultant('post', `/${parent.id}/users/${admin.id}/invite`)).status).to.equal(403);
    });
  });

  describe('tokens', () => {
    /** An opaque access token as the provider stores it, issued to the portal. */
    const portalToken = async (user: User) => {
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      await db().query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [id, { kind: 'AccessToken', jti: id, accountId: user.id, clientId: w.context.config.oidc.portalClientId, grantId: `g-${id}`, scope: 'openid profile', iat: now, exp: now + 3600 }, `g-${id}`],
      );
      return id;
    };
    const personalToken = async (user: User) => {
      const token = `${PAT_PREFIX}${randomToken(32)}`;
      await db().query(`INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix) VALUES ('ci', $1, $2, $3, $4)`, [
        user.id,
        IDENTITY_APPLICATION_ID,
        sha256(token),
        token.slice(0, 12),
      ]);
      return token;
    };
    const send = (path: string, token: string) => request(w.server).get(`/api/v1/admin/clients${path}`).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');

    it('accepts the portal’s session token and a personal access token, with the roles held in the database', async () => {
      for (const token of [await portalToken(consultant), await personalToken(consultant)]) {
        const tenants = await send(`/tenants?searchQuery=${t}%20parent`, token);
        expect(tenants.status).to.equal(200);
        expect(tenants.body.items.map((i: { id: string }) => i.id)).to.deep.equal([parent.id]);
        expect((await send(`/${parent.id}/users`, token)).status).to.equal(200);
        expect((await send(`/${managed.id}/users`, token)).status).to.equal(404);
      }
    });

    it('refuses a portal user who is no consultant (403), and keeps the rest of the administration closed to the portal token', async () => {
      const plain = await userIn(w, w.areaA);
      await grant(db(), { tenant: managed, user: plain, roles: [w.identity.roleByName.ServiceManager!] });
      const token = await portalToken(plain);
      expect((await send('/tenants', token)).status).to.equal(403);
      const consultantToken = await portalToken(consultant);
      expect((await request(w.server).get('/api/v1/admin/users').set('Authorization', `Bearer ${consultantToken}`)).status).to.equal(403);
    });
  });
});
