import { expect } from 'chai';
import { ERROR_SCHEMA, SCIM_TYPES, ScimError, toScimErrorBody } from './errors.js';

describe('SCIM errors (RFC 7644 §3.12)', () => {
  it('gives the error body with the status as a string', () => {
    const error = new ScimError(400, 'invalidFilter', 'unknown operator "is" at character 10');
    expect(toScimErrorBody(error)).to.deep.equal({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '400',
      scimType: 'invalidFilter',
      detail: 'unknown operator "is" at character 10',
    });
    expect(Object.keys(toScimErrorBody(error))).to.deep.equal(['schemas', 'status', 'scimType', 'detail']);
  });

  it('leaves scimType out when there is none', () => {
    expect(toScimErrorBody(new ScimError(404, undefined, 'Resource 2819c223 not found'))).to.deep.equal({
      schemas: [ERROR_SCHEMA],
      status: '404',
      detail: 'Resource 2819c223 not found',
    });
  });

  it('answers anything else as a 500 that reveals nothing', () => {
    expect(toScimErrorBody(new Error('connection refused to 10.0.0.5'))).to.deep.equal({ schemas: [ERROR_SCHEMA], status: '500', detail: 'internal error' });
  });

  it('is an Error with the detail as its message', () => {
    const error = new ScimError(409, 'uniqueness', 'userName is taken');
    expect(error).to.be.instanceOf(Error);
    expect(error.name).to.equal('ScimError');
    expect(error.message).to.equal('userName is taken');
    expect([error.status, error.scimType, error.detail]).to.deep.equal([409, 'uniqueness', 'userName is taken']);
  });

  it('knows the scimType values of §3.12', () => {
    expect(SCIM_TYPES).to.deep.equal(['invalidFilter', 'tooMany', 'uniqueness', 'mutability', 'invalidSyntax', 'invalidPath', 'noTarget', 'invalidValue', 'invalidVers', 'sensitive']);
  });
});
