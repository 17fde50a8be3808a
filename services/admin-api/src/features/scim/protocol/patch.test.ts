import { expect } from 'chai';
import { ScimError, type ScimType } from './errors.js';
import { PATCH_OP_SCHEMA, applyPatch, parsePatchRequest } from './patch.js';
import type { ResourceTypeName, ScimResource } from './schemas.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const BABS = '2819c223-7f76-453a-919d-413861904646';
const JAMES = '08e1d05d-121c-4561-8b96-473d93df9210';
const MANDY = '902c246b-6245-4190-8e05-00816be7344a';
const member = (value: string, display: string) => ({ value, $ref: `https://example.com/v2/Users/${value}`, display });

const body = (...Operations: unknown[]) => ({ schemas: [PATCH_OP_SCHEMA], Operations });

function group(members: unknown[] = [member(MANDY, 'Mandy Pepperidge')]): ScimResource {
  return {
    schemas: [GROUP],
    id: 'acbf3ae7-8463-4692-b4fd-9b4da3f908ce',
    displayName: 'Tour Guides',
    members,
    meta: { resourceType: 'Group', lastModified: '2011-05-13T04:42:34Z' },
  };
}

function user(): ScimResource {
  return {
    schemas: [CORE],
    id: BABS,
    externalId: '701984',
    userName: 'bjensen@example.com',
    name: { familyName: 'Jensen', givenName: 'Barbara' },
    active: true,
    emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
    addresses: [
      { type: 'work', streetAddress: '100 Universal City Plaza', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'USA' },
      { type: 'home', streetAddress: '456 Hollywood Blvd', locality: 'Hollywood', region: 'CA', postalCode: '91608', country: 'USA' },
    ],
    meta: { resourceType: 'User', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z' },
  };
}

function refusal(resource: ScimResource, request: unknown, type: ResourceTypeName = 'User'): ScimError {
  const before = structuredClone(resource);
  try {
    applyPatch(resource, request, type);
  } catch (error) {
    if (!(error instanceof ScimError)) throw error;
    expect(resource, 'the resource is left as it was').to.deep.equal(before);
    return error;
  }
  throw new Error('expected a ScimError');
}

function expectRefusal(resource: ScimResource, request: unknown, scimType: ScimType, detail?: RegExp, type: ResourceTypeName = 'User'): void {
  const error = refusal(resource, request, type);
  expect(error.status).to.equal(400);
  expect(error.scimType, error.detail).to.equal(scimType);
  if (detail) expect(error.detail).to.match(detail);
}

describe('SCIM PATCH (RFC 7644 §3.5.2)', () => {
  describe('the request', () => {
    it('reads the operations, op in any case', () => {
      expect(parsePatchRequest(body({ op: 'Add', path: 'title', value: 'x' }, { op: 'REMOVE', path: 'title' }, { op: 'replace', value: {} }))).to.deep.equal([
        { op: 'add', path: 'title', value: 'x' },
        { op: 'remove', path: 'title' },
        { op: 'replace', value: {} },
      ]);
    });

    it('refuses a body that is not a PatchOp with invalidSyntax', () => {
      const refused: [unknown, RegExp][] = [
        [null, /not a JSON object/],
        [[], /not a JSON object/],
        [{ Operations: [{ op: 'add', path: 'title', value: 'x' }] }, /schemas must be/],
        [{ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], Operations: [] }, /schemas must be/],
        [{ schemas: PATCH_OP_SCHEMA, Operations: [] }, /schemas must be/],
        [{ schemas: [PATCH_OP_SCHEMA] }, /needs Operations/],
        [body(), /needs Operations, an array of one or more/],
        [{ schemas: [PATCH_OP_SCHEMA], Operations: { op: 'add' } }, /needs Operations/],
        [body('add'), /Operations\[0\] is not an object/],
        [body({ op: 'add', path: 'title', value: 'x' }, { op: 'move', path: 'title' }), /Operations\[1\].op must be "add", "remove" or "replace", not "move"/],
        [body({ path: 'title', value: 'x' }), /op must be/],
        [body({ op: 1, path: 'title' }), /op must be/],
        [body({ op: 'add', path: 5, value: 'x' }), /Operations\[0\].path is not a string/],
        [body({ op: 'add', path: 'title' }), /Operations\[0\] \(add\) has no value/],
        [body({ op: 'replace' }), /has no value/],
      ];
      for (const [request, detail] of refused) expectRefusal(user(), request, 'invalidSyntax', detail);
    });
  });

  describe('add (§3.5.2.1)', () => {
    it('adds a member to a group', () => {
      const added = applyPatch(group(), body({ op: 'add', path: 'members', value: [member(BABS, 'Babs Jensen')] }), 'Group');
      expect(added).to.deep.equal({ ...group(), members: [member(MANDY, 'Mandy Pepperidge'), member(BABS, 'Babs Jensen')] });
    });

    it('makes no change when the user is a member already', () => {
      const request = body({ op: 'add', path: 'members', value: [{ value: MANDY, display: 'Mandy' }] });
      expect(applyPatch(group(), request, 'Group')).to.deep.equal(group());
    });

    it('without a path, adds each attribute of the value: a value to emails, nickname replaced', () => {
      const request = body({ op: 'add', value: { emails: [{ value: 'babs@jensen.org', type: 'home' }], nickname: 'Babs' } });
      const added = applyPatch({ ...user(), nickName: 'Barb' }, request, 'User');
      expect(added).to.deep.equal({
        ...user(),
        emails: [
          { value: 'bjensen@example.com', type: 'work', primary: true },
          { value: 'babs@jensen.org', type: 'home' },
        ],
        nickName: 'Babs',
      });
    });

    it('adds a single-valued attribute, replaces it when it has a value, and merges a complex one', () => {
      expect(applyPatch(user(), body({ op: 'add', path: 'title', value: 'Tour Guide' }), 'User').title).to.equal('Tour Guide');
      expect(applyPatch(user(), body({ op: 'add', path: 'userName', value: 'babs' }), 'User').userName).to.equal('babs');
      expect(applyPatch(user(), body({ op: 'add', path: 'name', value: { middleName: 'Jane' } }), 'User').name).to.deep.equal({
        familyName: 'Jensen',
        givenName: 'Barbara',
        middleName: 'Jane',
      });
      expect(applyPatch(user(), body({ op: 'add', path: 'name.honorificPrefix', value: 'Ms.' }), 'User').name).to.deep.equal({
        familyName: 'Jensen',
        givenName: 'Barbara',
        honorificPrefix: 'Ms.',
      });
      const bare = { schemas: [CORE], id: BABS, userName: 'b' };
      expect(applyPatch(bare, body({ op: 'add', path: 'name.givenName', value: 'Barbara' }), 'User')).to.deep.equal({ ...bare, name: { givenName: 'Barbara' } });
    });

    it('does not add a value equal to one the attribute has (value and type, case per caseExact)', () => {
      const request = body({ op: 'add', path: 'emails', value: [{ value: 'BJENSEN@example.com', type: 'work' }] });
      expect(applyPatch(user(), request, 'User').emails).to.deep.equal(user().emails);
      const other = body({ op: 'add', path: 'emails', value: [{ value: 'bjensen@example.com', type: 'home' }] });
      expect(applyPatch(user(), other, 'User').emails).to.have.length(2);
    });

    it('makes a value added as primary the only primary one', () => {
      const request = body({ op: 'add', path: 'emails', value: [{ value: 'babs@jensen.org', type: 'home', primary: true }] });
      expect(applyPatch(user(), request, 'User').emails).to.deep.equal([
        { value: 'bjensen@example.com', type: 'work', primary: false },
        { value: 'babs@jensen.org', type: 'home', primary: true },
      ]);
    });

    it('adds an immutable sub-attribute that has no value yet', () => {
      const request = body({ op: 'add', path: `members[value eq "${MANDY}"].type`, value: 'User' });
      expect(applyPatch(group(), request, 'Group').members).to.deep.equal([{ ...member(MANDY, 'Mandy Pepperidge'), type: 'User' }]);
    });

    it('names attributes as the schema does, whatever case the request uses', () => {
      const added = applyPatch(user(), body({ op: 'add', path: 'NAME.GIVENNAME', value: 'Babs' }, { op: 'add', path: 'DisplayName', value: 'Babs Jensen' }), 'User');
      expect(added.name).to.deep.equal({ familyName: 'Jensen', givenName: 'Babs' });
      expect(added.displayName).to.equal('Babs Jensen');
      const mixed = applyPatch({ ...user(), NickName: 'old' }, body({ op: 'add', path: 'nickname', value: 'new' }), 'User');
      expect(mixed).to.not.have.property('NickName');
      expect(mixed.nickName).to.equal('new');
    });
  });

  describe('remove (§3.5.2.2)', () => {
    const babsAndMandy = () => group([member(BABS, 'Babs Jensen'), member(MANDY, 'Mandy Pepperidge')]);

    it('removes all members of a group', () => {
      const { members, ...rest } = babsAndMandy();
      expect(members).to.have.length(2);
      expect(applyPatch(babsAndMandy(), body({ op: 'remove', path: 'members' }), 'Group')).to.deep.equal(rest);
    });

    it('removes a single member', () => {
      const request = body({ op: 'remove', path: `members[value eq "${BABS}"]` });
      expect(applyPatch(babsAndMandy(), request, 'Group')).to.deep.equal(group());
    });

    it('removes the values a complex filter matches', () => {
      const resource = {
        ...user(),
        emails: [
          { value: 'bjensen@example.com', type: 'work' },
          { value: 'babs@example.com', type: 'work' },
          { value: 'babs@jensen.org', type: 'work' },
          { value: 'home@example.com', type: 'home' },
        ],
      };
      const request = body({ op: 'remove', path: 'emails[type eq "work" and value ew "example.com"]' });
      expect(applyPatch(resource, request, 'User').emails).to.deep.equal([
        { value: 'babs@jensen.org', type: 'work' },
        { value: 'home@example.com', type: 'home' },
      ]);
    });

    it('removes a member, then adds one (the filter written as §3.5.2.2 writes it)', () => {
      const request = body(
        { op: 'remove', path: `members[value eq"${BABS}"]` },
        { op: 'add', path: 'members', value: [{ display: 'James Smith', $ref: `https://example.com/v2/Users/${JAMES}`, value: JAMES }] },
      );
      expect(applyPatch(babsAndMandy(), request, 'Group').members).to.deep.equal([member(MANDY, 'Mandy Pepperidge'), member(JAMES, 'James Smith')]);
    });

    it('replaces all members by removing them, then adding the new ones', () => {
      const request = body({ op: 'remove', path: 'members' }, { op: 'add', path: 'members', value: [member(JAMES, 'James Smith'), member(BABS, 'Barbara Jensen')] });
      expect(applyPatch(babsAndMandy(), request, 'Group').members).to.deep.equal([member(JAMES, 'James Smith'), member(BABS, 'Barbara Jensen')]);
    });

    it('leaves the attribute unassigned when no value remains', () => {
      const removed = applyPatch(group(), body({ op: 'remove', path: `members[value eq "${MANDY}"]` }), 'Group');
      expect(removed).to.not.have.property('members');
    });

    it('removes a sub-attribute, of a complex value or of the values a filter matches', () => {
      expect(applyPatch(user(), body({ op: 'remove', path: 'name.givenName' }), 'User').name).to.deep.equal({ familyName: 'Jensen' });
      expect(applyPatch(user(), body({ op: 'remove', path: 'emails[type eq "work"].value' }), 'User').emails).to.deep.equal([{ type: 'work', primary: true }]);
      const onlyValue = { ...user(), emails: [{ value: 'a@b.c' }, { value: 'd@e.f', type: 'home' }] };
      expect(applyPatch(onlyValue, body({ op: 'remove', path: 'emails.value' }), 'User').emails).to.deep.equal([{ type: 'home' }]);
      const { name, ...withoutName } = user();
      expect(name).to.be.an('object');
      const request = body({ op: 'remove', path: 'name.givenName' }, { op: 'remove', path: 'name.familyName' });
      expect(applyPatch(user(), request, 'User')).to.deep.equal(withoutName);
    });

    it('makes no change when there is nothing to remove', () => {
      expect(applyPatch(user(), body({ op: 'remove', path: 'title' }), 'User')).to.deep.equal(user());
      expect(applyPatch(user(), body({ op: 'remove', path: 'emails[type eq "other"]' }), 'User')).to.deep.equal(user());
      expect(applyPatch(user(), body({ op: 'remove', path: `${ENTERPRISE}:department` }), 'User')).to.deep.equal(user());
    });

    it('refuses a remove without a path with noTarget', () => {
      expectRefusal(user(), body({ op: 'remove' }), 'noTarget', /remove needs a path/);
      expectRefusal(user(), body({ op: 'remove', value: { title: 'x' } }), 'noTarget');
    });

    it('refuses to unassign a required or read-only attribute with mutability', () => {
      expectRefusal(user(), body({ op: 'remove', path: 'userName' }), 'mutability', /userName is required/);
      expectRefusal(group(), body({ op: 'remove', path: 'displayName' }), 'mutability', /displayName is required/, 'Group');
      expectRefusal(user(), body({ op: 'remove', path: 'id' }), 'mutability', /id is read-only/);
      expectRefusal(user(), body({ op: 'remove', path: 'meta.lastModified' }), 'mutability', /read-only/);
      expectRefusal(user(), body({ op: 'replace', path: 'userName', value: null }), 'mutability', /userName is required/);
      expectRefusal(user(), body({ op: 'replace', path: 'userName', value: '' }), 'mutability', /userName is required/);
      expectRefusal(group(), body({ op: 'remove', path: `members[value eq "${MANDY}"].value` }), 'mutability', /immutable/, 'Group');
    });
  });

  describe('replace (§3.5.2.3)', () => {
    it('replaces all members of a group', () => {
      const request = body({ op: 'replace', path: 'members', value: [member(BABS, 'Babs Jensen'), member(JAMES, 'James Smith')] });
      expect(applyPatch(group(), request, 'Group')).to.deep.equal(group([member(BABS, 'Babs Jensen'), member(JAMES, 'James Smith')]));
    });

    it("replaces the user's work address", () => {
      const work = {
        type: 'work',
        streetAddress: '911 Universal City Plaza',
        locality: 'Hollywood',
        region: 'CA',
        postalCode: '91608',
        country: 'US',
        formatted: '911 Universal City Plaza\nHollywood, CA 91608 US',
        primary: true,
      };
      const replaced = applyPatch(user(), body({ op: 'replace', path: 'addresses[type eq "work"]', value: work }), 'User');
      const [, home] = user().addresses as unknown[];
      expect(replaced).to.deep.equal({ ...user(), addresses: [work, home] });
    });

    it('replaces a sub-attribute of the values a filter matches', () => {
      const replaced = applyPatch(user(), body({ op: 'replace', path: 'addresses[type eq "work"].streetAddress', value: '1010 Broadway Ave' }), 'User');
      const [work, home] = user().addresses as Record<string, unknown>[];
      expect(replaced).to.deep.equal({ ...user(), addresses: [{ ...work, streetAddress: '1010 Broadway Ave' }, home] });
    });

    it('without a path, replaces each attribute of the value, leaving the others', () => {
      const request = body({
        op: 'replace',
        value: {
          emails: [
            { value: 'bjensen@example.com', type: 'work', primary: true },
            { value: 'babs@jensen.org', type: 'home' },
          ],
          nickname: 'Babs',
        },
      });
      expect(applyPatch({ ...user(), emails: [{ value: 'old@example.com', type: 'other' }] }, request, 'User')).to.deep.equal({
        ...user(),
        emails: [
          { value: 'bjensen@example.com', type: 'work', primary: true },
          { value: 'babs@jensen.org', type: 'home' },
        ],
        nickName: 'Babs',
      });
    });

    it('replaces userName, with a path or without', () => {
      expect(applyPatch(user(), body({ op: 'replace', path: 'userName', value: 'babs' }), 'User')).to.deep.equal({ ...user(), userName: 'babs' });
      expect(applyPatch(user(), body({ op: 'replace', value: { userName: 'babs' } }), 'User')).to.deep.equal({ ...user(), userName: 'babs' });
      expect(applyPatch(user(), body({ op: 'replace', path: `${CORE}:userName`, value: 'babs' }), 'User').userName).to.equal('babs');
    });

    it('merges into a complex attribute: sub-attributes not given are left unchanged', () => {
      expect(applyPatch(user(), body({ op: 'replace', path: 'name', value: { givenName: 'Babs' } }), 'User').name).to.deep.equal({ familyName: 'Jensen', givenName: 'Babs' });
    });

    it('adds an attribute that has no value', () => {
      expect(applyPatch(user(), body({ op: 'replace', path: 'title', value: 'Tour Guide' }), 'User').title).to.equal('Tour Guide');
      expect(applyPatch(user(), body({ op: 'replace', path: 'password', value: 't1meMa$heen' }), 'User').password).to.equal('t1meMa$heen');
    });

    it('unassigns an attribute replaced with null or []', () => {
      expect(applyPatch(user(), body({ op: 'replace', path: 'name', value: null }), 'User')).to.not.have.property('name');
      expect(applyPatch(user(), body({ op: 'replace', path: 'emails', value: [] }), 'User')).to.not.have.property('emails');
    });

    it('refuses a filter that matches no value with noTarget', () => {
      expectRefusal(user(), body({ op: 'replace', path: 'addresses[type eq "other"]', value: { type: 'other' } }), 'noTarget', /no value of addresses matches/);
      expectRefusal(user(), body({ op: 'replace', path: 'emails[type eq "home"].value', value: 'a@b.c' }), 'noTarget');
    });

    it('makes a value replaced as primary the only primary one', () => {
      const resource = { ...user(), emails: [{ value: 'a@b.c', type: 'work', primary: true }, { value: 'd@e.f', type: 'home' }] };
      const replaced = applyPatch(resource, body({ op: 'replace', path: 'emails[type eq "home"].primary', value: true }), 'User');
      expect(replaced.emails).to.deep.equal([
        { value: 'a@b.c', type: 'work', primary: false },
        { value: 'd@e.f', type: 'home', primary: true },
      ]);
    });
  });

  describe('the requests of Microsoft Entra ID', () => {
    it('takes capitalised ops and "True"/"False" for booleans', () => {
      const request = body({ op: 'Replace', path: 'active', value: 'False' });
      expect(applyPatch(user(), request, 'User')).to.deep.equal({ ...user(), active: false });
      expect(applyPatch({ ...user(), active: false }, body({ op: 'Add', path: 'active', value: 'TRUE' }), 'User').active).to.equal(true);
      const primary = body({ op: 'Add', path: 'emails', value: [{ value: 'babs@jensen.org', type: 'home', primary: 'True' }] });
      expect((applyPatch(user(), primary, 'User').emails as unknown[])[1]).to.deep.equal({ value: 'babs@jensen.org', type: 'home', primary: true });
    });

    it('replaces without a path, with URN-prefixed keys', () => {
      const request = body({ op: 'Replace', value: { [`${ENTERPRISE}:department`]: 'Sales', active: false, 'name.givenName': 'Babs' } });
      expect(applyPatch(user(), request, 'User')).to.deep.equal({
        ...user(),
        schemas: [CORE, ENTERPRISE],
        active: false,
        name: { familyName: 'Jensen', givenName: 'Babs' },
        [ENTERPRISE]: { department: 'Sales' },
      });
    });

    it('takes an extension as an object under its URN, without a path', () => {
      const request = body({ op: 'add', value: { [ENTERPRISE]: { employeeNumber: '701984', costCenter: '4130' } } });
      expect(applyPatch(user(), request, 'User')).to.deep.equal({ ...user(), schemas: [CORE, ENTERPRISE], [ENTERPRISE]: { employeeNumber: '701984', costCenter: '4130' } });
    });

    it('adds emails[type eq "work"].value: a new work email, or a new value for the one there is', () => {
      const request = body({ op: 'Add', path: 'emails[type eq "work"].value', value: 'babs@example.com' });
      expect(applyPatch(user(), request, 'User').emails).to.deep.equal([{ value: 'babs@example.com', type: 'work', primary: true }]);
      const { emails, ...withoutEmails } = user();
      expect(emails).to.be.an('array');
      expect(applyPatch(withoutEmails, request, 'User').emails).to.deep.equal([{ type: 'work', value: 'babs@example.com' }]);
      const phone = body({ op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' });
      expect(applyPatch(user(), phone, 'User').phoneNumbers).to.deep.equal([{ type: 'mobile', value: '+1 555 0100' }]);
      const address = body({ op: 'Add', path: 'addresses[type eq "other"].formatted', value: 'Somewhere' });
      expect((applyPatch(user(), address, 'User').addresses as unknown[])[2]).to.deep.equal({ type: 'other', formatted: 'Somewhere' });
    });

    it('sets the manager from a bare id, and removes it', () => {
      const added = applyPatch(user(), body({ op: 'Add', path: `${ENTERPRISE}:manager`, value: '26118915-6090-4610-87e4-49d8ca9f808d' }), 'User');
      expect(added).to.deep.equal({ ...user(), schemas: [CORE, ENTERPRISE], [ENTERPRISE]: { manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } } });
      expect(applyPatch(added, body({ op: 'Remove', path: `${ENTERPRISE}:manager` }), 'User')).to.deep.equal(user());
      const replaced = applyPatch(added, body({ op: 'Replace', path: `${ENTERPRISE}:manager.value`, value: 'other' }), 'User');
      expect(replaced[ENTERPRISE]).to.deep.equal({ manager: { value: 'other' } });
    });

    it('removes the members listed in the value of a remove of members', () => {
      const resource = group([member(BABS, 'Babs Jensen'), member(MANDY, 'Mandy Pepperidge'), member(JAMES, 'James Smith')]);
      const request = body({ op: 'Remove', path: 'members', value: [{ value: BABS }, { value: JAMES }] });
      expect(applyPatch(resource, request, 'Group').members).to.deep.equal([member(MANDY, 'Mandy Pepperidge')]);
    });

    it('replaces displayName and externalId', () => {
      const request = body({ op: 'Replace', path: 'displayName', value: 'Guides' }, { op: 'Add', path: 'externalId', value: 'ext-1' });
      expect(applyPatch(group(), request, 'Group')).to.deep.equal({ ...group(), displayName: 'Guides', externalId: 'ext-1' });
    });
  });

  describe('refusals', () => {
    it('refuses changes to read-only and immutable attributes with mutability', () => {
      expectRefusal(user(), body({ op: 'replace', path: 'id', value: 'x' }), 'mutability', /id is read-only/);
      expectRefusal(user(), body({ op: 'replace', value: { id: 'x' } }), 'mutability', /id is read-only/);
      expectRefusal(user(), body({ op: 'replace', path: 'meta.lastModified', value: '2020-01-01T00:00:00Z' }), 'mutability');
      expectRefusal(user(), body({ op: 'add', path: 'groups', value: [{ value: 'g' }] }), 'mutability', /groups is read-only/);
      expectRefusal(user(), body({ op: 'replace', path: `${ENTERPRISE}:manager.displayName`, value: 'x' }), 'mutability');
      expectRefusal(group(), body({ op: 'replace', path: `members[value eq "${MANDY}"].value`, value: BABS }), 'mutability', /immutable/, 'Group');
      expectRefusal(group(), body({ op: 'replace', path: `members[value eq "${MANDY}"]`, value: { value: BABS } }), 'mutability', /immutable/, 'Group');
    });

    it('refuses unknown attributes and malformed paths with invalidPath', () => {
      expectRefusal(user(), body({ op: 'add', path: 'nosuch', value: 'x' }), 'invalidPath', /User has no attribute nosuch/);
      expectRefusal(user(), body({ op: 'add', path: 'name.nosuch', value: 'x' }), 'invalidPath');
      expectRefusal(user(), body({ op: 'add', value: { nosuch: 'x' } }), 'invalidPath');
      expectRefusal(user(), body({ op: 'add', value: { 'emails[type eq "work"].value': 'x' } }), 'invalidPath', /is not an attribute name/);
      expectRefusal(user(), body({ op: 'add', path: 'urn:ietf:params:scim:schemas:extension:other:2.0:User:department', value: 'x' }), 'invalidPath', /unknown schema/);
      expectRefusal(user(), body({ op: 'add', path: 'userName[value eq "x"]', value: 'x' }), 'invalidPath', /not a multi-valued complex attribute/);
      expectRefusal(user(), body({ op: 'add', path: 'emails[type eq "work"', value: 'x' }), 'invalidPath');
      expectRefusal(user(), body({ op: 'add', path: '', value: 'x' }), 'invalidPath');
      expectRefusal(group(), body({ op: 'add', path: 'userName', value: 'x' }), 'invalidPath', /Group has no attribute userName/, 'Group');
      expectRefusal(group(), body({ op: 'add', path: `members[value eq "${MANDY}"].displayName`, value: 'x' }), 'invalidPath', undefined, 'Group');
    });

    it('refuses a filter its attribute cannot take with invalidFilter', () => {
      expectRefusal(user(), body({ op: 'remove', path: 'emails[primary co "t"]' }), 'invalidFilter');
    });

    it('refuses values of the wrong type with invalidValue', () => {
      const refused: [unknown, RegExp][] = [
        [{ op: 'replace', path: 'active', value: 'yes' }, /active must be a boolean, not "yes"/],
        [{ op: 'replace', path: 'active', value: 1 }, /must be a boolean/],
        [{ op: 'replace', path: 'userName', value: 5 }, /userName must be a string, not 5/],
        [{ op: 'replace', path: 'displayName', value: ['a'] }, /displayName is single-valued/],
        [{ op: 'replace', path: 'name', value: 'Barbara' }, /name must be an object of sub-attributes/],
        [{ op: 'add', path: 'emails', value: [{ value: 5 }] }, /emails\[0\].value must be a string/],
        [{ op: 'add', path: 'emails', value: [{ value: 'a@b.c', nosuch: 'x' }] }, /has no sub-attribute "nosuch"/],
        [{ op: 'add', path: 'emails', value: [['a']] }, /must be an object of sub-attributes/],
        [{ op: 'add', path: 'title', value: null }, /add to title needs a value/],
        [{ op: 'add', value: 'x' }, /add without a path needs an object/],
        [{ op: 'replace', value: [{ title: 'x' }] }, /needs an object/],
        [{ op: 'add', value: { [ENTERPRISE]: 'x' } }, /must be an object of its attributes/],
      ];
      for (const [operation, detail] of refused) expectRefusal(user(), body(operation), 'invalidValue', detail);
    });

    it('applies all operations or none: a failing one leaves the resource as it was', () => {
      const resource = user();
      const snapshot = structuredClone(resource);
      const request = body(
        { op: 'replace', path: 'userName', value: 'babs' },
        { op: 'add', path: 'emails', value: [{ value: 'babs@jensen.org', type: 'home' }] },
        { op: 'remove', path: 'name.givenName' },
        { op: 'add', path: `${ENTERPRISE}:department`, value: 'Sales' },
        { op: 'replace', path: 'addresses[type eq "other"].locality', value: 'Nowhere' },
      );
      expectRefusal(resource, request, 'noTarget');
      expect(resource).to.deep.equal(snapshot);
      const applied = applyPatch(resource, body(...request.Operations.slice(0, 4)), 'User');
      expect(applied.userName).to.equal('babs');
      expect(resource).to.deep.equal(snapshot);
    });
  });

  describe('schemas', () => {
    it('names the enterprise extension while the resource has its attributes', () => {
      const added = applyPatch(user(), body({ op: 'add', path: `${ENTERPRISE}:department`, value: 'Sales' }), 'User');
      expect(added.schemas).to.deep.equal([CORE, ENTERPRISE]);
      const removed = applyPatch(added, body({ op: 'remove', path: `${ENTERPRISE}:department` }), 'User');
      expect(removed.schemas).to.deep.equal([CORE]);
      expect(removed).to.not.have.property(ENTERPRISE);
    });
  });
});
