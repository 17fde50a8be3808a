import { expect } from 'chai';
import { ScimError } from './errors.js';
import { FILTER_LIMITS, matches, parseFilter, parsePath, toSql, type AttributePath, type CompareOperator, type Filter, type FilterValue, type SqlColumns } from './filter.js';
import type { ScimResource } from './schemas.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** An attribute path as the parser gives it. */
function p(text: string): AttributePath {
  const colon = text.lastIndexOf(':');
  const uri = colon === -1 ? undefined : text.slice(0, colon);
  const [attribute, subAttribute] = text.slice(colon + 1).split('.');
  return { ...(uri ? { uri } : {}), attribute, ...(subAttribute ? { subAttribute } : {}) };
}
const cmp = (path: string, operator: CompareOperator, value: FilterValue): Filter => ({ type: 'compare', path: p(path), operator, value });
const pr = (path: string): Filter => ({ type: 'present', path: p(path) });
const and = (left: Filter, right: Filter): Filter => ({ type: 'and', left, right });
const or = (left: Filter, right: Filter): Filter => ({ type: 'or', left, right });
const not = (filter: Filter): Filter => ({ type: 'not', filter });
const vp = (path: string, filter: Filter): Filter => ({ type: 'valuePath', path: p(path), filter });

function scimError(run: () => unknown): ScimError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return error;
    throw error;
  }
  throw new Error('expected a ScimError');
}

const bjensen: ScimResource = {
  schemas: [CORE, ENTERPRISE],
  id: '2819c223-7f76-453a-919d-413861904646',
  externalId: '701984',
  userName: 'bjensen',
  name: { formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barbara' },
  title: 'Tour Guide',
  userType: 'Employee',
  active: true,
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  ims: [{ value: 'someaimhandle', type: 'aim' }],
  meta: { resourceType: 'User', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z' },
  [ENTERPRISE]: { employeeNumber: '701984', department: 'Tour Operations', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' } },
};

const jomalley: ScimResource = {
  schemas: [CORE],
  id: '08e1d05d-121c-4561-8b96-473d93df9210',
  userName: 'JOMalley',
  name: { familyName: "O'Malley", givenName: 'Jo' },
  userType: 'Intern',
  active: false,
  emails: [{ value: 'jo@example.org', type: 'work' }],
  ims: [{ value: 'jo@foo.com', type: 'xmpp' }],
  // The same instant as 05:00:00Z: later than bjensen's.
  meta: { resourceType: 'User', lastModified: '2011-05-13T07:00:00+02:00' },
};

const edith: ScimResource = {
  schemas: [CORE],
  id: 'c3a1e5f0-0000-4000-8000-000000000003',
  userName: 'edith',
  title: '',
  userType: 'Contractor',
  emails: [],
  meta: { resourceType: 'User', lastModified: '2010-01-01T00:00:00Z' },
};

const users = [bjensen, jomalley, edith];
const matching = (filter: string) => users.filter((user) => matches(parseFilter(filter), user, 'User')).map((user) => user.userName);

describe('SCIM filters (RFC 7644 §3.4.2.2)', () => {
  describe('the examples of §3.4.2.2', () => {
    const examples: [string, Filter, string[]][] = [
      ['userName eq "bjensen"', cmp('userName', 'eq', 'bjensen'), ['bjensen']],
      ['name.familyName co "O\'Malley"', cmp('name.familyName', 'co', "O'Malley"), ['JOMalley']],
      ['userName sw "J"', cmp('userName', 'sw', 'J'), ['JOMalley']],
      [`${CORE}:userName sw "J"`, cmp(`${CORE}:userName`, 'sw', 'J'), ['JOMalley']],
      ['title pr', pr('title'), ['bjensen']],
      ['meta.lastModified gt "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'gt', '2011-05-13T04:42:34Z'), ['JOMalley']],
      ['meta.lastModified ge "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'ge', '2011-05-13T04:42:34Z'), ['bjensen', 'JOMalley']],
      ['meta.lastModified lt "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'lt', '2011-05-13T04:42:34Z'), ['edith']],
      ['meta.lastModified le "2011-05-13T04:42:34Z"', cmp('meta.lastModified', 'le', '2011-05-13T04:42:34Z'), ['bjensen', 'edith']],
      ['title pr and userType eq "Employee"', and(pr('title'), cmp('userType', 'eq', 'Employee')), ['bjensen']],
      ['title pr or userType eq "Intern"', or(pr('title'), cmp('userType', 'eq', 'Intern')), ['bjensen', 'JOMalley']],
      [`schemas eq "${ENTERPRISE}"`, cmp('schemas', 'eq', ENTERPRISE), ['bjensen']],
      [
        'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
        and(cmp('userType', 'eq', 'Employee'), or(cmp('emails', 'co', 'example.com'), cmp('emails.value', 'co', 'example.org'))),
        ['bjensen'],
      ],
      [
        'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
        and(cmp('userType', 'ne', 'Employee'), not(or(cmp('emails', 'co', 'example.com'), cmp('emails.value', 'co', 'example.org')))),
        ['edith'],
      ],
      ['userType eq "Employee" and (emails.type eq "work")', and(cmp('userType', 'eq', 'Employee'), cmp('emails.type', 'eq', 'work')), ['bjensen']],
      [
        'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
        and(cmp('userType', 'eq', 'Employee'), vp('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'co', '@example.com')))),
        ['bjensen'],
      ],
      [
        'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
        or(vp('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'co', '@example.com'))), vp('ims', and(cmp('type', 'eq', 'xmpp'), cmp('value', 'co', '@foo.com')))),
        ['bjensen', 'JOMalley'],
      ],
    ];
    for (const [text, ast, expected] of examples) {
      it(`${text}`, () => {
        expect(parseFilter(text)).to.deep.equal(ast);
        expect(matching(text)).to.deep.equal(expected);
      });
    }
  });

  describe('parsing', () => {
    it('binds not tighter than and, and tighter than or, left to right', () => {
      expect(parseFilter('a pr or b pr and c pr')).to.deep.equal(or(pr('a'), and(pr('b'), pr('c'))));
      expect(parseFilter('a pr and b pr or c pr')).to.deep.equal(or(and(pr('a'), pr('b')), pr('c')));
      expect(parseFilter('a pr and b pr and c pr')).to.deep.equal(and(and(pr('a'), pr('b')), pr('c')));
      expect(parseFilter('a pr or b pr or c pr')).to.deep.equal(or(or(pr('a'), pr('b')), pr('c')));
      expect(parseFilter('not (a pr) and b pr')).to.deep.equal(and(not(pr('a')), pr('b')));
      expect(parseFilter('a pr or not (b pr) and c pr')).to.deep.equal(or(pr('a'), and(not(pr('b')), pr('c'))));
    });

    it('groups with parentheses', () => {
      expect(parseFilter('(a pr or b pr) and c pr')).to.deep.equal(and(or(pr('a'), pr('b')), pr('c')));
      expect(parseFilter('a pr and (b pr or c pr)')).to.deep.equal(and(pr('a'), or(pr('b'), pr('c'))));
      expect(parseFilter('((a pr))')).to.deep.equal(pr('a'));
      expect(parseFilter('not ((a pr or b pr))')).to.deep.equal(not(or(pr('a'), pr('b'))));
    });

    it('reads operators, and, or, not and the literals in any case', () => {
      expect(parseFilter('userName Eq "john"')).to.deep.equal(cmp('userName', 'eq', 'john'));
      expect(parseFilter('Username EQ "john"')).to.deep.equal(cmp('Username', 'eq', 'john'));
      expect(parseFilter('title PR AND NOT (active EQ TRUE) OR x Ne NULL')).to.deep.equal(or(and(pr('title'), not(cmp('active', 'eq', true))), cmp('x', 'ne', null)));
    });

    it('reads JSON strings, true, false, null and numbers', () => {
      expect(parseFilter(String.raw`displayName eq "say \"hi\" \\ \u00e9\n"`)).to.deep.equal(cmp('displayName', 'eq', 'say "hi" \\ é\n'));
      expect(parseFilter('active eq false')).to.deep.equal(cmp('active', 'eq', false));
      expect(parseFilter('title eq null')).to.deep.equal(cmp('title', 'eq', null));
      expect(parseFilter('x gt 42')).to.deep.equal(cmp('x', 'gt', 42));
      expect(parseFilter('x le -1.5e3')).to.deep.equal(cmp('x', 'le', -1500));
      expect(parseFilter('x eq 0')).to.deep.equal(cmp('x', 'eq', 0));
      expect(parseFilter('meta.created lt "2011-05-13T04:42:34Z"')).to.deep.equal(cmp('meta.created', 'lt', '2011-05-13T04:42:34Z'));
    });

    it('reads schema URN prefixes, $ref and sub-attributes', () => {
      expect(parseFilter(`${ENTERPRISE}:manager.value eq "x"`)).to.deep.equal({
        type: 'compare',
        path: { uri: ENTERPRISE, attribute: 'manager', subAttribute: 'value' },
        operator: 'eq',
        value: 'x',
      });
      expect(parseFilter('members.$ref pr')).to.deep.equal(pr('members.$ref'));
    });

    it('takes any whitespace between tokens, and a quoted value right after its operator (as §3.5.2.2 writes it)', () => {
      expect(parseFilter('  userName\teq\n"a"  ')).to.deep.equal(cmp('userName', 'eq', 'a'));
      expect(parseFilter('members[value eq"2819c223-7f76-453a-919d-413861904646"]')).to.deep.equal(
        vp('members', cmp('value', 'eq', '2819c223-7f76-453a-919d-413861904646')),
      );
      expect(parseFilter('emails[ not (type eq "work") ]')).to.deep.equal(vp('emails', not(cmp('type', 'eq', 'work'))));
    });

    describe('refuses with invalidFilter, saying what and where', () => {
      const refused: [string, RegExp][] = [
        ['(userName eq "a"', /expected "\)" at character 17 to close the "\(" at character 1, found the end of the filter/],
        ['userName eq "a")', /unexpected "\)" at character 16/],
        ['((a pr) or b pr', /expected "\)" at character 16 to close the "\(" at character 1/],
        ['emails[type eq "work"', /expected "\]" at character 22 to close the "\[" at character 7/],
        ['userName is "a"', /unknown operator "is" at character 10/],
        ['userName eq', /expected a value after "eq" at character 12, found the end of the filter/],
        ['userName eq and b pr', /expected a value after "eq" at character 13, found "and"/],
        ['userName eq "a" and', /expected an attribute name at character 20, found the end/],
        ['userName "a"', /expected an operator at character 10, found the string "a"/],
        ['userName', /expected an operator at character 9, found the end/],
        ['eq "a"', /expected an operator at character 4, found the string "a"/],
        ["userName eq 'a'", /unexpected character "'" at character 13/],
        ['userName eq "a" garbage', /unexpected "garbage" at character 17/],
        ['@@@', /unexpected character "@" at character 1/],
        ['"just a string"', /expected an attribute name at character 1, found the string "just a string"/],
        ['userName eq "unterminated', /unterminated string at character 13/],
        [String.raw`userName eq "bad \q escape"`, /invalid string at character 13/],
        ['not userName eq "a"', /expected "\(" after "not" at character 5/],
        ['emails[type[value eq "a"] eq "b"]', /"\[" at character 12 inside another/],
        ['2userName eq "a"', /"2userName" at character 1 is not an attribute name/],
        ['name.given.name eq "a"', /is not an attribute name/],
        ['userName eq tru', /expected a value after "eq" at character 13, found "tru"/],
        ['userName eq 01', /found "01"/],
        ['()', /expected an attribute name at character 2, found "\)"/],
        ['', /the filter is empty/],
        ['   ', /the filter is empty/],
      ];
      for (const [text, detail] of refused) {
        it(JSON.stringify(text), () => {
          const error = scimError(() => parseFilter(text));
          expect(error.status).to.equal(400);
          expect(error.scimType).to.equal('invalidFilter');
          expect(error.detail).to.match(detail);
        });
      }
    });

    it('bounds the length, the number of expressions and the nesting', () => {
      const long = `userName eq "${'a'.repeat(FILTER_LIMITS.maxLength)}"`;
      expect(scimError(() => parseFilter(long)).detail).to.match(/longer than 4096 characters/);
      const many = Array.from({ length: FILTER_LIMITS.maxNodes + 1 }, (_, i) => `a${i} pr`).join(' or ');
      expect(many.length).to.be.below(FILTER_LIMITS.maxLength);
      expect(scimError(() => parseFilter(many)).detail).to.match(/more than 200 expressions/);
      expect(() => parseFilter(Array.from({ length: 100 }, (_, i) => `a${i} pr`).join(' or '))).to.not.throw();
      const deep = `${'('.repeat(FILTER_LIMITS.maxDepth + 1)}a pr${')'.repeat(FILTER_LIMITS.maxDepth + 1)}`;
      expect(scimError(() => parseFilter(deep)).detail).to.match(/nests more than 32 levels/);
      const deepNot = `${'not ('.repeat(2000)}a pr${')'.repeat(2000)}`;
      expect(scimError(() => parseFilter(deepNot)).scimType).to.equal('invalidFilter');
      expect(parseFilter(`${'('.repeat(FILTER_LIMITS.maxDepth)}a pr${')'.repeat(FILTER_LIMITS.maxDepth)}`)).to.deep.equal(pr('a'));
    });
  });

  describe('PATCH paths (§3.5.2)', () => {
    it('reads attrPath and valuePath [subAttr]', () => {
      expect(parsePath('members')).to.deep.equal({ attribute: p('members') });
      expect(parsePath('name.familyName')).to.deep.equal({ attribute: p('name.familyName') });
      expect(parsePath(`${ENTERPRISE}:manager`)).to.deep.equal({ attribute: { uri: ENTERPRISE, attribute: 'manager' } });
      expect(parsePath('addresses[type eq "work"]')).to.deep.equal({ attribute: p('addresses'), filter: cmp('type', 'eq', 'work') });
      expect(parsePath('members[value eq "2819c223-7f76-453a-919d-413861904646"].displayName')).to.deep.equal({
        attribute: p('members'),
        filter: cmp('value', 'eq', '2819c223-7f76-453a-919d-413861904646'),
        subAttribute: 'displayName',
      });
      expect(parsePath('emails[type eq "work" and value ew "example.com"]')).to.deep.equal({
        attribute: p('emails'),
        filter: and(cmp('type', 'eq', 'work'), cmp('value', 'ew', 'example.com')),
      });
    });

    it('refuses anything else with invalidPath', () => {
      for (const text of ['', 'members[', 'members[value eq "a"', 'members]', 'emails[type eq "work"].value.x', 'emails[type eq "work"]value', 'a b', 'emails[type eq "work"][x pr]', 'x.y.z', 'title pr']) {
        const error = scimError(() => parsePath(text));
        expect(error.scimType, text).to.equal('invalidPath');
        expect(error.status).to.equal(400);
      }
      expect(scimError(() => parsePath('members[value eq "a"')).detail).to.match(/^invalid path "members\[value eq \\"a\\"": expected "\]"/);
    });
  });

  describe('evaluation', () => {
    it('compares strings per caseExact: userName ignores case, id and externalId do not', () => {
      expect(matching('userName eq "BJENSEN"')).to.deep.equal(['bjensen']);
      expect(matching('userName eq "jomalley"')).to.deep.equal(['JOMalley']);
      expect(matching('id eq "2819C223-7F76-453A-919D-413861904646"')).to.deep.equal([]);
      expect(matching('id eq "2819c223-7f76-453a-919d-413861904646"')).to.deep.equal(['bjensen']);
      expect(matching('externalId eq "701984"')).to.deep.equal(['bjensen']);
      expect(matching('USERNAME ew "EY"')).to.deep.equal(['JOMalley']);
    });

    it('orders strings lexically and dateTimes as instants', () => {
      expect(matching('userName gt "c"')).to.deep.equal(['JOMalley', 'edith']);
      expect(matching('userName le "edith"')).to.deep.equal(['bjensen', 'edith']);
      expect(matching('meta.lastModified eq "2011-05-13T05:00:00Z"')).to.deep.equal(['JOMalley']);
      expect(matching('meta.lastModified eq "2011-05-13T04:42:34.000Z"')).to.deep.equal(['bjensen']);
      expect(matching('meta.lastModified lt "2011-05-13T04:42:34"')).to.deep.equal(['edith']);
      expect(matching('meta.created pr')).to.deep.equal(['bjensen']);
    });

    it('compares booleans with eq and ne', () => {
      expect(matching('active eq true')).to.deep.equal(['bjensen']);
      expect(matching('active ne true')).to.deep.equal(['JOMalley']);
      expect(matching('active eq false')).to.deep.equal(['JOMalley']);
    });

    it('matches a multi-valued attribute when one of its values does, comparing `value` when no sub-attribute is named', () => {
      expect(matching('emails eq "babs@jensen.org"')).to.deep.equal(['bjensen']);
      expect(matching('emails.value eq "BABS@jensen.org"')).to.deep.equal(['bjensen']);
      expect(matching('emails.type eq "home"')).to.deep.equal(['bjensen']);
      expect(matching('emails.type ne "home"')).to.deep.equal(['bjensen', 'JOMalley']);
      expect(matching('emails[type eq "home" and value co "example"]')).to.deep.equal([]);
      expect(matching('emails[type eq "home"] and emails[value co "example"]')).to.deep.equal(['bjensen']);
      expect(matching('emails[primary eq true]')).to.deep.equal(['bjensen']);
      expect(matching('emails[not (type eq "work")]')).to.deep.equal(['bjensen']);
      expect(matching(`schemas eq "${CORE}"`)).to.deep.equal(['bjensen', 'JOMalley', 'edith']);
    });

    it('takes pr as a non-empty value or array', () => {
      expect(matching('emails pr')).to.deep.equal(['bjensen', 'JOMalley']);
      expect(matching('emails.value pr')).to.deep.equal(['bjensen', 'JOMalley']);
      expect(matching('name pr')).to.deep.equal(['bjensen', 'JOMalley']);
      expect(matching('active pr')).to.deep.equal(['bjensen', 'JOMalley']);
      expect(matching('not (title pr)')).to.deep.equal(['JOMalley', 'edith']);
    });

    it('compares with null as with an absent value', () => {
      expect(matching('title eq null')).to.deep.equal(['JOMalley', 'edith']);
      expect(matching('title ne null')).to.deep.equal(['bjensen']);
    });

    it('finds the enterprise extension with or without its URN', () => {
      expect(matching(`${ENTERPRISE}:department eq "tour operations"`)).to.deep.equal(['bjensen']);
      expect(matching('department sw "Tour"')).to.deep.equal(['bjensen']);
      expect(matching(`${ENTERPRISE}:manager.value eq "26118915-6090-4610-87e4-49d8ca9f808d"`)).to.deep.equal(['bjensen']);
      expect(matching(`${ENTERPRISE.toUpperCase()}:MANAGER eq "26118915-6090-4610-87e4-49d8ca9f808d"`)).to.deep.equal(['bjensen']);
      expect(matching(`${CORE.toLowerCase()}:NAME.givenname eq "barbara"`)).to.deep.equal(['bjensen']);
    });

    it('takes an unknown attribute as absent: no comparison holds, not of one does', () => {
      expect(matching('nosuch eq "x"')).to.deep.equal([]);
      expect(matching('nosuch ne "x"')).to.deep.equal([]);
      expect(matching('nosuch pr')).to.deep.equal([]);
      expect(matching('name.nosuch eq "x"')).to.deep.equal([]);
      expect(matching('emails[nosuch eq "x"]')).to.deep.equal([]);
      expect(matching('not (nosuch eq "x")')).to.deep.equal(['bjensen', 'JOMalley', 'edith']);
      expect(matching('nosuch co 5 or userName eq "edith"')).to.deep.equal(['edith']);
      // ne does not hold where there is no value either; edith's "" is a value here, as in SQL.
      expect(matching('title ne "Tour Guide"')).to.deep.equal(['edith']);
      expect(matching('not (title eq "Tour Guide")')).to.deep.equal(['JOMalley', 'edith']);
    });

    it('evaluates Group filters', () => {
      const group: ScimResource = {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        id: 'e9e30dba-f08f-4109-8486-d5c6a331660a',
        displayName: 'Tour Guides',
        members: [{ value: '2819c223-7f76-453a-919d-413861904646', display: 'Babs Jensen', type: 'User' }],
      };
      expect(matches(parseFilter('displayName eq "tour guides"'), group, 'Group')).to.equal(true);
      expect(matches(parseFilter('members[value eq "2819c223-7f76-453a-919d-413861904646"]'), group, 'Group')).to.equal(true);
      expect(matches(parseFilter('members.value eq "08e1d05d-121c-4561-8b96-473d93df9210"'), group, 'Group')).to.equal(false);
      expect(matches(parseFilter('userName eq "x"'), group, 'Group')).to.equal(false);
    });

    describe('refuses with invalidFilter what the schema does not allow', () => {
      const refused: [string, RegExp][] = [
        ['active co "t"', /co applies to strings only, and "active" is not one/],
        ['active sw "t"', /sw applies to strings only/],
        ['active gt true', /"active" is a boolean: only eq and ne apply, not gt/],
        ['active eq "true"', /"active" compares with a boolean, not "true"/],
        ['meta.lastModified co "2011"', /co applies to strings only/],
        ['meta.lastModified gt "yesterday"', /"yesterday" is not a dateTime/],
        ['meta.lastModified gt 5', /compares with a dateTime string, not 5/],
        ['userName eq 5', /"userName" compares with a string, not 5/],
        ['userName eq true', /compares with a string, not true/],
        ['userName gt null', /only eq and ne compare with null/],
        ['name eq "Barbara"', /"name" is complex: compare one of its sub-attributes/],
        ['x509Certificates.value gt "a"', /binary: gt does not apply/],
        ['urn:ietf:params:scim:schemas:extension:other:2.0:User:costCenter eq "x"', /unknown schema "urn:ietf:params:scim:schemas:extension:other:2.0:User"/],
        ['urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "x"', /unknown schema/],
        ['emails[value.x eq "a"]', /inside emails\[...\], "value.x" must be a sub-attribute name/],
        ['userName[value eq "a"]', /userName has no sub-attributes to filter on/],
        ['emails[primary co "t"]', /co applies to strings only, and "primary" is not one/],
      ];
      for (const [text, detail] of refused) {
        it(text, () => {
          const error = scimError(() => matches(parseFilter(text), edith, 'User'));
          expect(error.scimType).to.equal('invalidFilter');
          expect(error.detail).to.match(detail);
        });
      }
    });
  });

  describe('toSql', () => {
    const emails = (condition: string) => `EXISTS (SELECT 1 FROM user_emails e WHERE e.user_id = u.id AND ${condition})`;
    const columns: SqlColumns = {
      id: { sql: 'u.id', type: 'string', caseExact: true },
      username: { sql: 'u.user_name', type: 'string', caseExact: false },
      'name.givenname': { sql: 'u.first_name', type: 'string', caseExact: false },
      'name.familyname': { sql: 'u.last_name', type: 'string', caseExact: false },
      title: { sql: 'u.title', type: 'string', caseExact: false },
      usertype: { sql: 'u.user_type', type: 'string', caseExact: false },
      active: { sql: 'u.active', type: 'boolean', caseExact: false },
      externalid: { sql: 'u.external_id', type: 'string', caseExact: true },
      'meta.lastmodified': { sql: 'u.updated_at', type: 'dateTime', caseExact: false },
      logins: { sql: 'u.login_count', type: 'integer', caseExact: false },
      [`${ENTERPRISE.toLowerCase()}:department`]: { sql: 'u.department', type: 'string', caseExact: false },
      emails: {
        exists: emails,
        subAttributes: {
          value: { sql: 'e.address', type: 'string', caseExact: false },
          type: { sql: 'e.kind', type: 'string', caseExact: false },
          primary: { sql: 'e.is_primary', type: 'boolean', caseExact: false },
        },
      },
    };
    const sql = (filter: string, offset?: number) => toSql(parseFilter(filter), columns, offset);

    it('compares strings that are not caseExact with lower() on both sides', () => {
      expect(sql('userName eq "bjensen"')).to.deep.equal({ where: 'lower(u.user_name) = lower($1)', params: ['bjensen'] });
      expect(sql('userName ne "bjensen"')).to.deep.equal({ where: 'lower(u.user_name) <> lower($1)', params: ['bjensen'] });
      expect(sql('userName gt "b"')).to.deep.equal({ where: 'lower(u.user_name) > lower($1)', params: ['b'] });
      expect(sql(`${CORE}:userName le "b"`)).to.deep.equal({ where: 'lower(u.user_name) <= lower($1)', params: ['b'] });
    });

    it('compares caseExact strings as they are', () => {
      expect(sql('externalId eq "701984"')).to.deep.equal({ where: 'u.external_id = $1', params: ['701984'] });
      expect(sql('id ge "a"')).to.deep.equal({ where: 'u.id >= $1', params: ['a'] });
    });

    it('numbers the parameters from the offset', () => {
      expect(sql('userName eq "a" or externalId eq "b"', 2)).to.deep.equal({
        where: '(lower(u.user_name) = lower($3) OR u.external_id = $4)',
        params: ['a', 'b'],
      });
    });

    it('uses LIKE and ILIKE for co, sw and ew, escaping %, _ and \\', () => {
      expect(sql('name.familyName co "O\'Malley"')).to.deep.equal({ where: 'u.last_name ILIKE $1', params: ["%O'Malley%"] });
      expect(sql('userName sw "J"')).to.deep.equal({ where: 'u.user_name ILIKE $1', params: ['J%'] });
      expect(sql('userName ew "@example.com"')).to.deep.equal({ where: 'u.user_name ILIKE $1', params: ['%@example.com'] });
      expect(sql(String.raw`externalId co "50%_off\\now"`)).to.deep.equal({ where: 'u.external_id LIKE $1', params: [String.raw`%50\%\_off\\now%`] });
    });

    it('takes pr as non-null and, for strings, non-empty', () => {
      expect(sql('title pr')).to.deep.equal({ where: "(u.title IS NOT NULL AND u.title <> '')", params: [] });
      expect(sql('active pr')).to.deep.equal({ where: 'u.active IS NOT NULL', params: [] });
      expect(sql('title eq null')).to.deep.equal({ where: "(u.title IS NULL OR u.title = '')", params: [] });
      expect(sql('active ne null')).to.deep.equal({ where: 'u.active IS NOT NULL', params: [] });
    });

    it('compiles booleans, integers and dateTimes with their values as parameters', () => {
      expect(sql('active eq true')).to.deep.equal({ where: 'u.active = $1', params: [true] });
      expect(sql('active ne false')).to.deep.equal({ where: 'u.active <> $1', params: [false] });
      expect(sql('logins ge 3')).to.deep.equal({ where: 'u.login_count >= $1', params: [3] });
      expect(sql('meta.lastModified gt "2011-05-13T04:42:34Z"')).to.deep.equal({ where: 'u.updated_at > $1', params: ['2011-05-13T04:42:34Z'] });
      expect(sql('meta.lastModified le "2011-05-13T04:42:34"')).to.deep.equal({ where: 'u.updated_at <= $1', params: ['2011-05-13T04:42:34Z'] });
    });

    it('keeps the precedence with parentheses and compiles not as IS NOT TRUE, so that NULL columns match it', () => {
      expect(sql('title pr and userType eq "Employee"')).to.deep.equal({
        where: "((u.title IS NOT NULL AND u.title <> '') AND lower(u.user_type) = lower($1))",
        params: ['Employee'],
      });
      expect(sql('title pr or userType eq "Intern" and active eq true')).to.deep.equal({
        where: "((u.title IS NOT NULL AND u.title <> '') OR (lower(u.user_type) = lower($1) AND u.active = $2))",
        params: ['Intern', true],
      });
      expect(sql('not (userName eq "a")')).to.deep.equal({ where: '(lower(u.user_name) = lower($1)) IS NOT TRUE', params: ['a'] });
      expect(sql('not (userName eq "a" or title pr)')).to.deep.equal({
        where: "(lower(u.user_name) = lower($1) OR (u.title IS NOT NULL AND u.title <> '')) IS NOT TRUE",
        params: ['a'],
      });
      expect(sql('not (not (active eq true))')).to.deep.equal({ where: '((u.active = $1) IS NOT TRUE) IS NOT TRUE', params: [true] });
    });

    it('compiles a multi-valued attribute, its value paths and the examples of §3.4.2.2 through exists()', () => {
      expect(sql('emails.value co "example.com"')).to.deep.equal({ where: emails('e.address ILIKE $1'), params: ['%example.com%'] });
      expect(sql('emails eq "a@b.c"')).to.deep.equal({ where: emails('lower(e.address) = lower($1)'), params: ['a@b.c'] });
      expect(sql('emails pr')).to.deep.equal({ where: emails('TRUE'), params: [] });
      expect(sql('emails.primary eq true')).to.deep.equal({ where: emails('e.is_primary = $1'), params: [true] });
      expect(sql('userType eq "Employee" and emails[type eq "work" and value co "@example.com"]')).to.deep.equal({
        where: `(lower(u.user_type) = lower($1) AND ${emails('(lower(e.kind) = lower($2) AND e.address ILIKE $3)')})`,
        params: ['Employee', 'work', '%@example.com%'],
      });
      expect(sql('userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")')).to.deep.equal({
        where: `(lower(u.user_type) <> lower($1) AND (${emails('e.address ILIKE $2')} OR ${emails('e.address ILIKE $3')}) IS NOT TRUE)`,
        params: ['Employee', '%example.com%', '%example.org%'],
      });
      expect(sql('emails[not (type eq "work")]')).to.deep.equal({ where: emails('(lower(e.kind) = lower($1)) IS NOT TRUE'), params: ['work'] });
    });

    it('finds extension attributes by their URN-prefixed path', () => {
      expect(sql(`${ENTERPRISE}:department eq "Sales"`)).to.deep.equal({ where: 'lower(u.department) = lower($1)', params: ['Sales'] });
    });

    it('refuses attributes the map lacks and comparisons their type does not allow', () => {
      const refused: [string, RegExp][] = [
        ['nickName eq "x"', /^the attribute nickName cannot be filtered on$/],
        ['name.middleName eq "x"', /the attribute name.middleName cannot be filtered on/],
        ['emails.display eq "x"', /the attribute emails.display cannot be filtered on/],
        ['emails[display eq "x"]', /the attribute display cannot be filtered on/],
        ['ims[type eq "x"]', /the attribute ims cannot be filtered on with "\[...\]"/],
        ['userName[type eq "x"]', /the attribute userName cannot be filtered on with/],
        ['department eq "x"', /the attribute department cannot be filtered on/],
        ['active co "t"', /co applies to strings only/],
        ['active gt true', /only eq and ne apply/],
        ['logins eq 1.5', /"logins" is an integer, not 1.5/],
        ['logins co "1"', /co applies to strings only/],
        ['meta.lastModified gt "soon"', /"soon" is not a dateTime/],
        ['userName eq 3', /compares with a string, not 3/],
      ];
      for (const [text, detail] of refused) {
        const error = scimError(() => sql(text));
        expect(error.scimType, text).to.equal('invalidFilter');
        expect(error.detail, text).to.match(detail);
      }
    });
  });
});
