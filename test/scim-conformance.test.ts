// SCIM 2.0 conformance, written from RFC 7644 itself: the example requests of sections 3.3 to 3.7
// and 3.14, the filters of section 3.4.2.2 and the PATCH examples of section 3.5.2, sent to the
// running product and answered as the RFC shows. Two deliberate adaptations, both the product's
// rules: user names are e-mail addresses ("bjensen@example.com" for the RFC's "bjensen"), and every
// user has a given and a family name. Resources are checked against SCIMMY's schema classes.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import SCIMMY from 'scimmy';
import { startTestServer, type TestServer } from './support/server.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Staff }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: hr, name: hr, displayName: HR suite, type: confidential, secret: 'hr-secret-0123456789-abcdefghijklmnopq', redirectUris: ['\${url}/hr/cb'], roles: [{ name: Clerk }] }
`;

SCIMMY.Schemas.User.definition.extend(SCIMMY.Schemas.EnterpriseUser.definition);

type Json = Record<string, any>;

describe('SCIM 2.0 conformance (RFC 7644 examples, against the running product)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let token: string;

  async function scim(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Json }> {
    const res = await fetch(`${server.url}/scim/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/scim+json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Json) : {} };
  }

  const conforms = (resource: Json, type: 'User' | 'Group') => {
    const schema = type === 'User' ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group;
    expect(() => schema.definition.coerce(resource, 'out'), JSON.stringify(resource)).not.to.throw();
  };

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
    // A token of the HR suite for the Staff area, issued by the first administrator, as the console issues it.
    const db = server.server.context.dataSource;
    const [admin] = await db.query(`SELECT id FROM users WHERE normalized_user_name = 'admin@gatehouse.local'`);
    const [area] = await db.query(`SELECT id FROM areas WHERE name = 'Staff'`);
    token = `gscim_${randomBytes(32).toString('base64url')}`;
    await db.query(
      `INSERT INTO scim_tokens (application_id, area_id, name, token_hash, token_last_chars, created_by) VALUES ('hr', $1, 'conformance', $2, $3, $4)`,
      [area.id, createHash('sha256').update(token).digest('hex'), token.slice(-4), admin.id],
    );
  });

  after(() => server?.stop());

  // §3.3: POST /Users, the RFC's example (user name as an e-mail address).
  const bjensen = {
    schemas: [USER],
    userName: 'bjensen@example.com',
    externalId: 'bjensen',
    name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
  };
  let bjensenId = '';
  let bjensenVersion = '';

  it('§3.3 creates a resource: 201, Location, ETag, and the resource with id and meta', async () => {
    const res = await scim('POST', '/Users', bjensen);
    expect(res.status).to.equal(201);
    expect(res.headers.get('content-type')).to.match(/^application\/scim\+json/);
    expect(res.body).to.deep.include({ schemas: [USER], userName: 'bjensen@example.com', externalId: 'bjensen' });
    expect(res.body.name).to.deep.equal(bjensen.name);
    expect(res.body.meta).to.include({ resourceType: 'User', location: `${server.url}/scim/v2/Users/${res.body.id}` });
    expect(res.body.meta.created).to.equal(res.body.meta.lastModified);
    expect(res.headers.get('location')).to.equal(res.body.meta.location);
    expect(res.headers.get('etag')).to.equal(res.body.meta.version);
    conforms(res.body, 'User');
    bjensenId = res.body.id;
    bjensenVersion = res.body.meta.version;
    // §3.3: the same user name again is 409 with scimType uniqueness.
    const again = await scim('POST', '/Users', bjensen);
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.include({ schemas: [ERROR], scimType: 'uniqueness', status: '409' });
  });

  it('§3.4.1 retrieves a known resource with its ETag', async () => {
    const res = await scim('GET', `/Users/${bjensenId}`);
    expect(res.status).to.equal(200);
    expect(res.body.id).to.equal(bjensenId);
    expect(res.headers.get('etag')).to.equal(bjensenVersion);
    conforms(res.body, 'User');
  });

  it('§3.4.2 queries with attributes=userName: a ListResponse of id and userName', async () => {
    const res = await scim('GET', '/Users?attributes=userName');
    expect(res.status).to.equal(200);
    expect(res.body.schemas).to.deep.equal([LIST]);
    expect(res.body.totalResults).to.be.at.least(1);
    for (const resource of res.body.Resources) expect(Object.keys(resource).sort()).to.deep.equal(['id', 'schemas', 'userName']);
  });

  describe('§3.4.2.2 filters', () => {
    const people: Json[] = [];
    before(async () => {
      const seed = [
        { userName: 'jsmith@example.com', name: { givenName: 'John', familyName: "O'Malley" }, title: 'Tour Guide', userType: 'Employee', emails: [{ value: 'jsmith@example.com', type: 'work' }] },
        { userName: 'jdoe@example.org', name: { givenName: 'Jane', familyName: 'Doe' }, userType: 'Intern', emails: [{ value: 'jdoe@example.org', type: 'work' }], ims: [{ value: 'jdoe@foo.com', type: 'xmpp' }] },
        { userName: 'kim@elsewhere.net', name: { givenName: 'Kim', familyName: 'Lee' }, userType: 'Contractor', [ENTERPRISE]: { employeeNumber: '42' }, schemas: [USER, ENTERPRISE] },
      ];
      for (const person of seed) {
        const res = await scim('POST', '/Users', { schemas: [USER], ...person });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        people.push(res.body);
      }
    });
    const names = async (filter: string) => {
      const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}&sortBy=userName`);
      expect(res.status, `${filter}: ${JSON.stringify(res.body)}`).to.equal(200);
      return (res.body.Resources as Json[]).map((resource) => resource.userName as string);
    };
    const cases: Array<[string, string[]]> = [
      ['userName eq "bjensen@example.com"', ['bjensen@example.com']],
      ['userName Eq "BJENSEN@example.com"', ['bjensen@example.com']],
      [`name.familyName co "O'Malley"`, ['jsmith@example.com']],
      ['userName sw "J"', ['jdoe@example.org', 'jsmith@example.com']],
      ['urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"', ['jdoe@example.org', 'jsmith@example.com']],
      ['title pr', ['jsmith@example.com']],
      ['meta.lastModified gt "2011-05-13T04:42:34Z"', ['bjensen@example.com', 'jdoe@example.org', 'jsmith@example.com', 'kim@elsewhere.net']],
      ['meta.lastModified ge "2011-05-13T04:42:34Z"', ['bjensen@example.com', 'jdoe@example.org', 'jsmith@example.com', 'kim@elsewhere.net']],
      ['meta.lastModified lt "2011-05-13T04:42:34Z"', []],
      ['meta.lastModified le "2011-05-13T04:42:34Z"', []],
      ['title pr and userType eq "Employee"', ['jsmith@example.com']],
      ['title pr or userType eq "Intern"', ['jdoe@example.org', 'jsmith@example.com']],
      [`schemas eq "${ENTERPRISE}"`, ['kim@elsewhere.net']],
      ['userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")', ['jsmith@example.com']],
      ['userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")', ['kim@elsewhere.net']],
      ['userType eq "Employee" and (emails.type eq "work")', ['jsmith@example.com']],
      ['userType eq "Employee" and emails[type eq "work" and value co "@example.com"]', ['jsmith@example.com']],
      ['emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]', ['bjensen@example.com', 'jdoe@example.org', 'jsmith@example.com']],
    ];
    for (const [filter, expected] of cases) {
      it(filter, async () => {
        expect(await names(filter)).to.deep.equal(expected);
      });
    }

    it('§3.4.2.4 pages with startIndex and count', async () => {
      const all = await scim('GET', '/Users?sortBy=userName');
      const page = await scim('GET', '/Users?sortBy=userName&startIndex=2&count=2');
      expect(page.body).to.deep.include({ totalResults: all.body.totalResults, startIndex: 2, itemsPerPage: 2 });
      expect(page.body.Resources.map((r: Json) => r.id)).to.deep.equal(all.body.Resources.slice(1, 3).map((r: Json) => r.id));
      const counted = await scim('GET', '/Users?count=0');
      expect(counted.body).to.deep.include({ totalResults: all.body.totalResults, itemsPerPage: 0, Resources: [] });
    });

    it('an unknown operator or attribute is 400 invalidFilter', async () => {
      for (const filter of ['userName xx "a"', 'userName eq', 'favourite eq "blue"', '(userName eq "a"']) {
        const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        expect(res.status, filter).to.equal(400);
        expect(res.body, filter).to.deep.include({ schemas: [ERROR], scimType: 'invalidFilter' });
      }
    });
  });

  it('§3.4.3 queries with POST /.search', async () => {
    const request = { schemas: [SEARCH], attributes: ['displayName', 'userName'], filter: 'displayName sw "barbara"', startIndex: 1, count: 10 };
    const res = await scim('POST', '/.search', request);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.schemas).to.deep.equal([LIST]);
    expect(res.body.Resources).to.have.length(1);
    expect(res.body.Resources[0]).to.deep.equal({ schemas: [USER], id: bjensenId, userName: 'bjensen@example.com', displayName: 'Barbara Jensen' });
    const users = await scim('POST', '/Users/.search', { ...request, filter: 'userName eq "bjensen@example.com"' });
    expect(users.body.totalResults).to.equal(1);
  });

  it('§3.5.1 replaces with PUT (If-Match), answering the new version', async () => {
    const res = await scim(
      'PUT',
      `/Users/${bjensenId}`,
      {
        schemas: [USER],
        id: bjensenId,
        userName: 'bjensen@example.com',
        externalId: 'bjensen',
        name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara', middleName: 'Jane' },
        roles: [],
        emails: [{ value: 'bjensen@example.com' }, { value: 'babs@jensen.org' }],
      },
      { 'If-Match': bjensenVersion },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.name.middleName).to.equal('Jane');
    expect(res.body.emails.map((email: Json) => email.value)).to.deep.equal(['bjensen@example.com', 'babs@jensen.org']);
    expect(res.body.meta.version).not.to.equal(bjensenVersion);
    conforms(res.body, 'User');
    bjensenVersion = res.body.meta.version;
  });

  describe('§3.5.2 PATCH', () => {
    let groupId = '';
    let members: string[] = [];
    before(async () => {
      for (const name of ['ann', 'ben', 'cat']) {
        const res = await scim('POST', '/Users', { schemas: [USER], userName: `${name}@example.net`, name: { givenName: name, familyName: 'Member' } });
        members.push(res.body.id);
      }
      const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Tour Guides', members: [{ value: bjensenId, display: 'Babs Jensen' }] });
      expect(group.status, JSON.stringify(group.body)).to.equal(201);
      conforms(group.body, 'Group');
      groupId = group.body.id;
    });
    const memberIds = async () => ((await scim('GET', `/Groups/${groupId}`)).body.members ?? []).map((m: Json) => m.value).sort();

    it('§3.5.2.1 adds a member', async () => {
      const res = await scim('PATCH', `/Groups/${groupId}`, {
        schemas: [PATCH],
        Operations: [{ op: 'add', path: 'members', value: [{ display: 'ann', $ref: `${server.url}/scim/v2/Users/${members[0]}`, value: members[0] }] }],
      });
      expect(res.status).to.be.oneOf([200, 204]);
      expect(await memberIds()).to.deep.equal([bjensenId, members[0]].sort());
    });

    let babsId = '';
    it('§3.5.2.1 adds without a path (emails and nickname)', async () => {
      babsId = (await scim('POST', '/Users', { schemas: [USER], userName: 'babs@example.com', name: { givenName: 'Babs', familyName: 'Jensen' } })).body.id;
      const res = await scim('PATCH', `/Users/${babsId}`, { schemas: [PATCH], Operations: [{ op: 'add', value: { emails: [{ value: 'babs@jensen.org', type: 'home' }], nickname: 'Babs' } }] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.nickName).to.equal('Babs');
      expect(res.body.emails.some((email: Json) => email.value === 'babs@jensen.org' && email.type === 'home')).to.equal(true);
    });

    it('§3.5.2.2 removes one member with a value filter', async () => {
      await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${bjensenId}"]` }] });
      expect(await memberIds()).to.deep.equal([members[0]]);
    });

    it('§3.5.2.2 removes every member', async () => {
      await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'members' }] });
      expect(await memberIds()).to.deep.equal([]);
    });

    it('§3.5.2.2 removes one member and adds another in one request', async () => {
      await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: members[0] }, { value: members[1] }] }] });
      await scim('PATCH', `/Groups/${groupId}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'remove', path: `members[value eq "${members[0]}"]` },
          { op: 'add', path: 'members', value: [{ display: 'cat', $ref: `${server.url}/scim/v2/Users/${members[2]}`, value: members[2] }] },
        ],
      });
      expect(await memberIds()).to.deep.equal([members[1], members[2]].sort());
    });

    it('§3.5.2.2 removes a complex value by filter (an e-mail address)', async () => {
      const res = await scim('PATCH', `/Users/${babsId}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'emails[type eq "home" and value ew "jensen.org"]' }] });
      expect(res.status).to.equal(200);
      expect(res.body.emails.map((email: Json) => email.value)).to.deep.equal(['babs@example.com']);
    });

    it('§3.5.2.3 replaces every member', async () => {
      await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'members', value: [{ display: 'Babs Jensen', value: bjensenId }, { value: members[0] }] }] });
      expect(await memberIds()).to.deep.equal([bjensenId, members[0]].sort());
    });

    it('§3.5.2.3 replaces a work address, then one of its sub-attributes', async () => {
      const address = { type: 'work', streetAddress: '911 Universal City Plaza', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'US', formatted: '911 Universal City Plaza\nHollywood, CA 91608 US', primary: true };
      await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'addresses', value: [address] }] });
      const replaced = await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'addresses[type eq "work"]', value: { ...address, streetAddress: '100 Universal City Plaza' } }] });
      expect(replaced.body.addresses[0].streetAddress).to.equal('100 Universal City Plaza');
      const sub = await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'addresses[type eq "work"].streetAddress', value: '1010 Broadway Ave' }] });
      expect(sub.body.addresses).to.have.length(1);
      expect(sub.body.addresses[0]).to.include({ streetAddress: '1010 Broadway Ave', locality: 'Hollywood' });
      conforms(sub.body, 'User');
    });

    it('§3.5.2.3 replaces several attributes without a path', async () => {
      const res = await scim('PATCH', `/Users/${bjensenId}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', value: { emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }], nickname: 'Barbie', userName: 'bjensen@example.com' } }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ nickName: 'Barbie', emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }] });
    });

    it('§3.5.2 refuses a change of a read-only attribute with scimType mutability, and an unknown path with invalidPath', async () => {
      const id = await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'id', value: 'x' }] });
      expect(id.status).to.equal(400);
      expect(id.body.scimType).to.equal('mutability');
      const unknown = await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'favourite', value: 'x' }] });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.scimType).to.equal('invalidPath');
      const target = await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'remove' }] });
      expect(target.status).to.equal(400);
      expect(target.body.scimType).to.equal('noTarget');
    });
  });

  it('§3.14 versions: If-None-Match answers 304, a stale If-Match 412 and nothing changes', async () => {
    const current = await scim('GET', `/Users/${bjensenId}`);
    const version = current.headers.get('etag')!;
    const notModified = await fetch(`${server.url}/scim/v2/Users/${bjensenId}`, { headers: { Authorization: `Bearer ${token}`, 'If-None-Match': version } });
    expect(notModified.status).to.equal(304);
    const stale = await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'nickName', value: 'Stale' }] }, { 'If-Match': 'W/"stale"' });
    expect(stale.status).to.equal(412);
    expect((await scim('GET', `/Users/${bjensenId}`)).body.nickName).to.equal(current.body.nickName);
    const fresh = await scim('PATCH', `/Users/${bjensenId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'nickName', value: 'Fresh' }] }, { 'If-Match': version });
    expect(fresh.status).to.equal(200);
  });

  it('§3.6 deletes: 204, then 404', async () => {
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'gone@example.com', name: { givenName: 'Gone', familyName: 'Soon' } });
    expect((await scim('DELETE', `/Users/${created.body.id}`)).status).to.equal(204);
    const after = await scim('GET', `/Users/${created.body.id}`);
    expect(after.status).to.equal(404);
    expect(after.body).to.deep.include({ schemas: [ERROR], status: '404' });
  });

  it('§3.7 bulk is not offered (ServiceProviderConfig says so): 501', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.body.bulk.supported).to.equal(false);
    const bulk = await scim('POST', '/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] });
    expect(bulk.status).to.equal(501);
  });
});
