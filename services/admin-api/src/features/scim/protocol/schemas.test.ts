import { expect } from 'chai';
import {
  COMMON_ATTRIBUTES,
  ENTERPRISE_USER_SCHEMA,
  ENTERPRISE_USER_SCHEMA_ID,
  GROUP_SCHEMA,
  GROUP_SCHEMA_ID,
  RESOURCE_TYPES,
  SCHEMAS,
  USER_SCHEMA,
  USER_SCHEMA_ID,
  findAttribute,
  parseAttributePath,
  resolveAttribute,
  schemaResource,
  type AttributeDefinition,
} from './schemas.js';

const CHARACTERISTICS = ['name', 'type', 'multiValued', 'description', 'required', 'caseExact', 'mutability', 'returned', 'uniqueness'];

function everyAttribute(attributes: readonly AttributeDefinition[]): AttributeDefinition[] {
  return attributes.flatMap((attribute) => [attribute, ...everyAttribute(attribute.subAttributes ?? [])]);
}

const names = (attributes: readonly AttributeDefinition[] | undefined) => (attributes ?? []).map((attribute) => attribute.name);

describe('SCIM schemas (RFC 7643)', () => {
  it('defines the attributes of the User schema (§4.1)', () => {
    expect(names(USER_SCHEMA.attributes)).to.deep.equal([
      'userName',
      'name',
      'displayName',
      'nickName',
      'profileUrl',
      'title',
      'userType',
      'preferredLanguage',
      'locale',
      'timezone',
      'active',
      'password',
      'emails',
      'phoneNumbers',
      'ims',
      'photos',
      'addresses',
      'groups',
      'entitlements',
      'roles',
      'x509Certificates',
    ]);
    expect(names(findAttribute(USER_SCHEMA.attributes, 'name')?.subAttributes)).to.deep.equal([
      'formatted',
      'familyName',
      'givenName',
      'middleName',
      'honorificPrefix',
      'honorificSuffix',
    ]);
    expect(names(findAttribute(USER_SCHEMA.attributes, 'emails')?.subAttributes)).to.deep.equal(['value', 'display', 'type', 'primary']);
    expect(names(findAttribute(ENTERPRISE_USER_SCHEMA.attributes, 'manager')?.subAttributes)).to.deep.equal(['value', '$ref', 'displayName']);
    expect(names(ENTERPRISE_USER_SCHEMA.attributes)).to.deep.equal(['employeeNumber', 'costCenter', 'organization', 'division', 'department', 'manager']);
    expect(names(GROUP_SCHEMA.attributes)).to.deep.equal(['displayName', 'members']);
    expect(names(findAttribute(GROUP_SCHEMA.attributes, 'members')?.subAttributes)).to.deep.equal(['value', '$ref', 'type', 'display']);
    expect(names(COMMON_ATTRIBUTES)).to.deep.equal(['schemas', 'id', 'externalId', 'meta']);
  });

  it('gives each attribute every characteristic of §2.2, and sub-attributes to complex ones only', () => {
    for (const attribute of everyAttribute([...COMMON_ATTRIBUTES, ...SCHEMAS.flatMap((schema) => schema.attributes)])) {
      expect(attribute, attribute.name).to.include.all.keys(CHARACTERISTICS);
      expect(attribute.subAttributes !== undefined, attribute.name).to.equal(attribute.type === 'complex');
      for (const sub of attribute.subAttributes ?? []) expect(sub.type, `${attribute.name}.${sub.name}`).to.not.equal('complex');
    }
  });

  it('keeps the characteristics the RFC gives', () => {
    const user = (path: string) => {
      const resolved = resolveAttribute('User', path)!;
      return resolved.subAttribute ?? resolved.attribute;
    };
    expect(user('id')).to.include({ caseExact: true, mutability: 'readOnly', returned: 'always', uniqueness: 'server' });
    expect(user('externalId')).to.include({ caseExact: true, mutability: 'readWrite' });
    expect(user('userName')).to.include({ required: true, caseExact: false, uniqueness: 'server', returned: 'default' });
    expect(user('password')).to.include({ mutability: 'writeOnly', returned: 'never' });
    expect(user('groups')).to.include({ multiValued: true, mutability: 'readOnly' });
    expect(user('groups.value')).to.include({ mutability: 'readOnly' });
    expect(user('active')).to.include({ type: 'boolean' });
    expect(user('meta')).to.include({ type: 'complex', mutability: 'readOnly' });
    expect(user('meta.lastModified')).to.include({ type: 'dateTime', mutability: 'readOnly' });
    expect(user('emails.type').canonicalValues).to.deep.equal(['work', 'home', 'other']);
    expect(user('ims.type').canonicalValues).to.deep.equal(['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo']);
    expect(user('profileUrl')).to.include({ type: 'reference' });
    expect(user('profileUrl').referenceTypes).to.deep.equal(['external']);
    expect(user('x509Certificates.value')).to.include({ type: 'binary' });
    expect(user(`${ENTERPRISE_USER_SCHEMA_ID}:manager.$ref`).referenceTypes).to.deep.equal(['User']);
    expect(user(`${ENTERPRISE_USER_SCHEMA_ID}:manager.displayName`)).to.include({ mutability: 'readOnly' });
    const members = resolveAttribute('Group', 'members')!.attribute;
    expect(members).to.include({ multiValued: true, mutability: 'readWrite' });
    expect(findAttribute(members.subAttributes, 'value')).to.include({ mutability: 'immutable' });
    expect(findAttribute(members.subAttributes, 'type')?.canonicalValues).to.deep.equal(['User', 'Group']);
  });

  it('serves each schema as /Schemas does (RFC 7643 §7, §8.7.1)', () => {
    const served = schemaResource(USER_SCHEMA, 'https://example.com/scim/v2/');
    expect(served).to.deep.equal({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: USER_SCHEMA_ID,
      name: 'User',
      description: 'User Account',
      attributes: USER_SCHEMA.attributes,
      meta: { resourceType: 'Schema', location: `https://example.com/scim/v2/Schemas/${USER_SCHEMA_ID}` },
    });
    expect(JSON.parse(JSON.stringify(served)).attributes[0]).to.deep.equal({
      name: 'userName',
      type: 'string',
      multiValued: false,
      description: 'The unique identifier the user signs in with.',
      required: true,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'server',
    });
    expect(SCHEMAS.map((schema) => [schema.id, schema.name])).to.deep.equal([
      [USER_SCHEMA_ID, 'User'],
      [ENTERPRISE_USER_SCHEMA_ID, 'EnterpriseUser'],
      [GROUP_SCHEMA_ID, 'Group'],
    ]);
    expect(RESOURCE_TYPES.User.schemaExtensions).to.deep.equal([{ schema: ENTERPRISE_USER_SCHEMA_ID, required: false }]);
    expect(RESOURCE_TYPES.Group).to.include({ endpoint: '/Groups', schema: GROUP_SCHEMA_ID });
  });

  describe('resolveAttribute', () => {
    const found = (type: 'User' | 'Group', path: string) => {
      const resolved = resolveAttribute(type, path);
      return resolved && { schema: resolved.schema, extension: resolved.extension, attribute: resolved.attribute.name, sub: resolved.subAttribute?.name };
    };

    it('finds core, common and extension attributes, with or without their URN, in any case (§3.10)', () => {
      expect(found('User', 'userName')).to.deep.equal({ schema: USER_SCHEMA_ID, extension: false, attribute: 'userName', sub: undefined });
      expect(found('User', 'USERNAME')).to.deep.include({ attribute: 'userName' });
      expect(found('User', 'name.givenName')).to.deep.include({ attribute: 'name', sub: 'givenName' });
      expect(found('User', 'Name.GivenName')).to.deep.include({ attribute: 'name', sub: 'givenName' });
      expect(found('User', 'emails.value')).to.deep.include({ attribute: 'emails', sub: 'value' });
      expect(found('User', `${USER_SCHEMA_ID}:userName`)).to.deep.include({ schema: USER_SCHEMA_ID, attribute: 'userName' });
      expect(found('User', `${USER_SCHEMA_ID.toUpperCase()}:userName`)).to.deep.include({ attribute: 'userName' });
      expect(found('User', `${USER_SCHEMA_ID}:id`)).to.deep.include({ attribute: 'id' });
      expect(found('User', 'meta.lastModified')).to.deep.include({ schema: USER_SCHEMA_ID, attribute: 'meta', sub: 'lastModified' });
      expect(found('User', `${ENTERPRISE_USER_SCHEMA_ID}:manager.value`)).to.deep.equal({
        schema: ENTERPRISE_USER_SCHEMA_ID,
        extension: true,
        attribute: 'manager',
        sub: 'value',
      });
      expect(found('User', 'department')).to.deep.include({ schema: ENTERPRISE_USER_SCHEMA_ID, extension: true });
      expect(found('Group', 'members.value')).to.deep.include({ schema: GROUP_SCHEMA_ID, attribute: 'members', sub: 'value' });
      expect(found('Group', 'members.$ref')).to.deep.include({ sub: '$ref' });
    });

    it('finds nothing for unknown names, unknown URNs and malformed paths', () => {
      for (const path of ['nosuch', 'name.nosuch', 'userName.value', 'emails.value.x', `${GROUP_SCHEMA_ID}:displayName`, 'urn:x:userName', '', 'a b', '1abc']) {
        expect(resolveAttribute('User', path), path).to.equal(undefined);
      }
      expect(resolveAttribute('Group', 'userName')).to.equal(undefined);
      expect(resolveAttribute('Group', `${ENTERPRISE_USER_SCHEMA_ID}:department`)).to.equal(undefined);
    });
  });

  it('splits attribute paths at the last colon of their URN', () => {
    expect(parseAttributePath(`${ENTERPRISE_USER_SCHEMA_ID}:manager.value`)).to.deep.equal({ uri: ENTERPRISE_USER_SCHEMA_ID, attribute: 'manager', subAttribute: 'value' });
    expect(parseAttributePath('name.givenName')).to.deep.equal({ attribute: 'name', subAttribute: 'givenName' });
    expect(parseAttributePath('members.$ref')).to.deep.equal({ attribute: 'members', subAttribute: '$ref' });
    expect(parseAttributePath('a-b_c1')).to.deep.equal({ attribute: 'a-b_c1' });
    expect(parseAttributePath('a.b.c')).to.equal(undefined);
    expect(parseAttributePath(ENTERPRISE_USER_SCHEMA_ID)).to.deep.equal({ uri: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0', attribute: 'User' });
  });
});
