import { expect } from 'chai';
import { ScimError } from './errors.js';
import { project } from './projection.js';
import type { ScimResource } from './schemas.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ID = '2819c223-7f76-453a-919d-413861904646';

function user(): ScimResource {
  return {
    schemas: [CORE, ENTERPRISE],
    id: ID,
    externalId: '701984',
    userName: 'bjensen@example.com',
    name: { familyName: 'Jensen', givenName: 'Barbara' },
    password: 't1meMa$heen',
    emails: [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ],
    groups: [{ value: 'e9e30dba-f08f-4109-8486-d5c6a331660a', display: 'Tour Guides', type: 'direct' }],
    meta: { resourceType: 'User', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z' },
    [ENTERPRISE]: { department: 'Tour Operations', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' } },
  };
}

function without(resource: ScimResource, ...names: string[]): ScimResource {
  return Object.fromEntries(Object.entries(resource).filter(([key]) => !names.includes(key)));
}

describe('SCIM attribute projection (RFC 7644 §3.4.2.5, §3.9)', () => {
  it('returns the default attributes, never the password', () => {
    expect(project(user(), 'User')).to.deep.equal(without(user(), 'password'));
    expect(project(user(), 'User', { attributes: ['password'] })).to.deep.equal({ schemas: [CORE, ENTERPRISE], id: ID });
  });

  it('with attributes, returns only those named, and id and schemas always', () => {
    expect(project(user(), 'User', { attributes: ['userName'] })).to.deep.equal({ schemas: [CORE, ENTERPRISE], id: ID, userName: 'bjensen@example.com' });
    expect(project(user(), 'User', { attributes: ['NAME', 'EXTERNALID'] })).to.deep.equal({
      schemas: [CORE, ENTERPRISE],
      id: ID,
      externalId: '701984',
      name: { familyName: 'Jensen', givenName: 'Barbara' },
    });
    expect(project(user(), 'User', { attributes: [`${CORE}:userName`, 'meta.lastModified'] })).to.deep.equal({
      schemas: [CORE, ENTERPRISE],
      id: ID,
      userName: 'bjensen@example.com',
      meta: { lastModified: '2011-05-13T04:42:34Z' },
    });
  });

  it('returns only the sub-attributes named', () => {
    expect(project(user(), 'User', { attributes: ['name.givenName', 'emails.value'] })).to.deep.equal({
      schemas: [CORE, ENTERPRISE],
      id: ID,
      name: { givenName: 'Barbara' },
      emails: [{ value: 'bjensen@example.com' }, { value: 'babs@jensen.org' }],
    });
    expect(project(user(), 'User', { attributes: ['emails.type', 'emails.primary'] }).emails).to.deep.equal([{ type: 'work', primary: true }, { type: 'home' }]);
  });

  it('finds extension attributes by URN-prefixed name, by bare name, and all of them by the URN', () => {
    const department = { schemas: [CORE, ENTERPRISE], id: ID, [ENTERPRISE]: { department: 'Tour Operations' } };
    expect(project(user(), 'User', { attributes: [`${ENTERPRISE}:department`] })).to.deep.equal(department);
    expect(project(user(), 'User', { attributes: [`${ENTERPRISE.toLowerCase()}:DEPARTMENT`] })).to.deep.equal(department);
    expect(project(user(), 'User', { attributes: ['department'] })).to.deep.equal(department);
    expect(project(user(), 'User', { attributes: [`${ENTERPRISE}:manager.value`] })[ENTERPRISE]).to.deep.equal({
      manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' },
    });
    expect(project(user(), 'User', { attributes: [ENTERPRISE] })).to.deep.equal({ schemas: [CORE, ENTERPRISE], id: ID, [ENTERPRISE]: user()[ENTERPRISE] });
  });

  it('with excludedAttributes, returns the default attributes but those, keeping the ones returned always', () => {
    expect(project(user(), 'User', { excludedAttributes: ['emails', 'groups', 'id', 'schemas'] })).to.deep.equal(without(user(), 'password', 'emails', 'groups'));
    expect(project(user(), 'User', { excludedAttributes: ['name.familyName', 'emails.primary', 'meta'] })).to.deep.equal({
      ...without(user(), 'password', 'meta'),
      name: { givenName: 'Barbara' },
      emails: [
        { value: 'bjensen@example.com', type: 'work' },
        { value: 'babs@jensen.org', type: 'home' },
      ],
    });
    expect(project(user(), 'User', { excludedAttributes: [ENTERPRISE] })).to.deep.equal(without(user(), 'password', ENTERPRISE));
    expect(project(user(), 'User', { excludedAttributes: [`${ENTERPRISE}:department`] })[ENTERPRISE]).to.deep.equal({
      manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' },
    });
    expect(project(user(), 'User', { excludedAttributes: [`${ENTERPRISE}:department`, `${ENTERPRISE}:manager`] })).to.not.have.property(ENTERPRISE);
  });

  it('ignores names the schemas do not have, and leaves out members they do not define', () => {
    expect(project(user(), 'User', { attributes: ['nosuch', 'name.nosuch', 'urn:x:y:z'] })).to.deep.equal({ schemas: [CORE, ENTERPRISE], id: ID });
    expect(project(user(), 'User', { excludedAttributes: ['nosuch'] })).to.deep.equal(without(user(), 'password'));
    expect(project({ ...user(), secret: 'x', name: { givenName: 'B', secret: 'y' } }, 'User')).to.deep.equal({
      ...without(user(), 'password'),
      name: { givenName: 'B' },
    });
  });

  it('projects groups', () => {
    const group = {
      schemas: [GROUP],
      id: 'e9e30dba-f08f-4109-8486-d5c6a331660a',
      displayName: 'Tour Guides',
      members: [{ value: ID, display: 'Babs Jensen', type: 'User' }],
    };
    expect(project(group, 'Group', { attributes: ['displayName'] })).to.deep.equal({ schemas: [GROUP], id: group.id, displayName: 'Tour Guides' });
    expect(project(group, 'Group', { excludedAttributes: ['members'] })).to.deep.equal({ schemas: [GROUP], id: group.id, displayName: 'Tour Guides' });
    expect(project(group, 'Group', { attributes: ['members.value'] })).to.deep.equal({ schemas: [GROUP], id: group.id, members: [{ value: ID }] });
    expect(project(group, 'Group', { attributes: ['userName'] })).to.deep.equal({ schemas: [GROUP], id: group.id });
  });

  it('leaves its input as it was', () => {
    const resource = user();
    project(resource, 'User', { attributes: ['name.givenName'] });
    project(resource, 'User', { excludedAttributes: ['emails.value'] });
    expect(resource).to.deep.equal(user());
  });

  it('refuses attributes and excludedAttributes together', () => {
    expect(() => project(user(), 'User', { attributes: ['userName'], excludedAttributes: ['emails'] }))
      .to.throw(ScimError)
      .with.property('scimType', 'invalidValue');
  });
});
