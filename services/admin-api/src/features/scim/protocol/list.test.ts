import { expect } from 'chai';
import { ScimError } from './errors.js';
import { LIST_RESPONSE_SCHEMA, listResponse, parseListQuery } from './list.js';

const options = { maxCount: 100 };

function refusal(query: Record<string, unknown>, extra: Partial<Parameters<typeof parseListQuery>[1]> = {}): ScimError {
  try {
    parseListQuery(query, { ...options, ...extra });
  } catch (error) {
    if (error instanceof ScimError) return error;
    throw error;
  }
  throw new Error('expected a ScimError');
}

describe('SCIM list queries (RFC 7644 §3.4.2)', () => {
  it('defaults to the first page of the largest size, ascending', () => {
    expect(parseListQuery({}, options)).to.deep.equal({ sortOrder: 'ascending', startIndex: 1, count: 100 });
    expect(parseListQuery({}, { maxCount: 100, defaultCount: 20 })).to.deep.equal({ sortOrder: 'ascending', startIndex: 1, count: 20 });
  });

  it('reads every parameter', () => {
    const query = {
      filter: 'userName eq "bjensen"',
      sortBy: 'name.familyName',
      sortOrder: 'descending',
      startIndex: '11',
      count: '10',
      attributes: 'userName,name.givenName, emails',
    };
    expect(parseListQuery(query, options)).to.deep.equal({
      filter: { type: 'compare', path: { attribute: 'userName' }, operator: 'eq', value: 'bjensen' },
      sortBy: 'name.familyName',
      sortOrder: 'descending',
      startIndex: 11,
      count: 10,
      attributes: ['userName', 'name.givenName', 'emails'],
    });
  });

  it('takes startIndex below 1 as 1 and a negative count as 0, and cuts count to the maximum (§3.4.2.4)', () => {
    expect(parseListQuery({ startIndex: '0' }, options).startIndex).to.equal(1);
    expect(parseListQuery({ startIndex: '-5' }, options).startIndex).to.equal(1);
    expect(parseListQuery({ count: '-1' }, options).count).to.equal(0);
    expect(parseListQuery({ count: '0' }, options).count).to.equal(0);
    expect(parseListQuery({ count: '500' }, options).count).to.equal(100);
    expect(parseListQuery({ count: ' 7 ' }, options).count).to.equal(7);
    expect(parseListQuery({ count: '99999999999999999999999' }, options).count).to.equal(100);
  });

  it('reads the JSON of a POST /.search body, and parameter names in any case', () => {
    expect(parseListQuery({ startIndex: 5, count: 3, attributes: ['userName', 'emails'] }, options)).to.deep.equal({
      sortOrder: 'ascending',
      startIndex: 5,
      count: 3,
      attributes: ['userName', 'emails'],
    });
    expect(parseListQuery({ StartIndex: '3', SORTORDER: 'Ascending', excludedattributes: 'groups' }, options)).to.deep.equal({
      sortOrder: 'ascending',
      startIndex: 3,
      count: 100,
      excludedAttributes: ['groups'],
    });
  });

  it('joins repeated attributes parameters, and takes schema URNs among them', () => {
    const urn = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
    expect(parseListQuery({ attributes: ['userName', `${urn}:department,${urn}`] }, options).attributes).to.deep.equal(['userName', `${urn}:department`, urn]);
  });

  it('refuses a wrong filter with invalidFilter', () => {
    expect(refusal({ filter: 'userName eq' }).scimType).to.equal('invalidFilter');
    expect(refusal({ filter: '' }).scimType).to.equal('invalidFilter');
    expect(refusal({ filter: 5 }).scimType).to.equal('invalidFilter');
    expect(parseListQuery({ filter: 'active co "x"' }, options).filter).to.deep.equal({ type: 'compare', path: { attribute: 'active' }, operator: 'co', value: 'x' });
    expect(refusal({ filter: 'active co "x"' }, { resourceType: 'User' }).detail).to.match(/co applies to strings only/);
    expect(refusal({ filter: 'urn:x:y:User:a eq "x"' }, { resourceType: 'Group' }).detail).to.match(/unknown schema/);
  });

  it('refuses wrong values with invalidValue', () => {
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ startIndex: 'abc' }, /startIndex must be an integer, not "abc"/],
      [{ startIndex: '1.5' }, /startIndex must be an integer/],
      [{ count: 'ten' }, /count must be an integer/],
      [{ count: 2.5 }, /count must be an integer/],
      [{ count: '' }, /count must be an integer/],
      [{ sortOrder: 'down' }, /sortOrder must be "ascending" or "descending", not "down"/],
      [{ sortBy: 'not a name' }, /sortBy must be an attribute name/],
      [{ sortBy: '' }, /sortBy must be an attribute name/],
      [{ attributes: 'userName,not a name' }, /attributes: "not a name" is not an attribute name/],
      [{ excludedAttributes: [5] }, /excludedAttributes must be a comma-separated list/],
      [{ attributes: 'userName', excludedAttributes: 'emails' }, /cannot be given together/],
      [{ filter: ['userName pr', 'title pr'] }, /the parameter filter is given more than once/],
      [{ count: '1', Count: '2' }, /the parameter count is given more than once/],
      [{ startIndex: { a: 1 } }, /the parameter startIndex is not a string/],
    ];
    for (const [query, detail] of refused) {
      const error = refusal(query);
      expect(error.status).to.equal(400);
      expect(error.scimType, JSON.stringify(query)).to.equal('invalidValue');
      expect(error.detail).to.match(detail);
    }
  });

  it('answers a ListResponse', () => {
    const resources = [{ id: 'a' }, { id: 'b' }];
    expect(listResponse(resources, 12, 11)).to.deep.equal({
      schemas: [LIST_RESPONSE_SCHEMA],
      totalResults: 12,
      Resources: resources,
      startIndex: 11,
      itemsPerPage: 2,
    });
    expect(listResponse([], 0, 1)).to.deep.equal({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, Resources: [], startIndex: 1, itemsPerPage: 0 });
  });
});
